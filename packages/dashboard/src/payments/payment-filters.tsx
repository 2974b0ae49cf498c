import type { Account } from '../accounts/account-types'
import { accountChoices } from '../accounts/own-accounts'
import { kassa } from '../api/kassa'
import type { Payment } from '../api/types'
import { useLoad } from '../api/use-load'
import { withFilters } from '../api/use-list-page'
import { Link } from '../router/link'
import { navigate, useLocation } from '../router/router'
import { AmountBound } from '../ui/amount-bound'
import { Field } from '../ui/field'
import { SelectField } from '../ui/select-field'
import { currencyDigits } from './amount-entry'
import { CounterpartyPicker } from './counterparty-picker'
import { amountCurrency, hasFilters, type PaymentFilters } from './payment-list-query'
import { statusLabel } from './status-badge'

const STATUSES: Payment['status'][] = ['CREATED', 'APPROVED', 'PENDING_SUBMISSION', 'SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED', 'RECONCILED', 'REJECTED', 'FAILED', 'RETURNED', 'CANCELLED']

/** The counterparty the address filters by, with its name once read (its id's end until then, or if it is gone). */
function useFilteredCounterparty(id: string) {
  const loaded = useLoad(async () => (id ? (await kassa.GET('/payments/v2/counterparties/{id}', { params: { path: { id } } })).data : undefined), [id])
  if (!id) return undefined
  return loaded.status === 'ready' && loaded.data ? loaded.data : { id, legalName: `Counterparty …${id.slice(-6)}` }
}

/**
 * The payment lists' filters, each change put into the address. The amount bounds are in one currency:
 * the chosen account's, or without an account, the one chosen beside them ("Amount currency"); it goes
 * into the address with them, so a link means the same amounts to whoever opens it.
 */
export function PaymentFilterBar({
  filters,
  accounts,
  currency,
  byStatus = true,
}: {
  filters: PaymentFilters
  accounts: Account[]
  currency: string
  /** False where the list has one status (Approvals: CREATED). */
  byStatus?: boolean
}) {
  const location = useLocation()
  const counterparty = useFilteredCounterparty(filters.counterparty)
  const set = (changes: Partial<Record<keyof PaymentFilters, string>>) => navigate(withFilters(location, changes))
  const digits = currencyDigits(currency)
  const currencies = [...new Set([...accounts.map((account) => account.currency), currency])]
  const bounded = filters.min !== '' || filters.max !== ''

  return (
    <form class="filters filters-row" role="search" aria-label="Filter payments" onSubmit={(event) => event.preventDefault()}>
      {byStatus && (
        <SelectField
          label="Status"
          value={filters.status}
          none="Any status"
          choices={STATUSES.map((value) => ({ value, label: statusLabel(value) }))}
          onChange={(status) => set({ status })}
        />
      )}
      {/* Accounts that cannot be read (a role without accounts:read) leave "Any account" alone. */}
      <SelectField
        label="Account"
        value={filters.account}
        none="Any account"
        choices={accountChoices(accounts)}
        onChange={(account) =>
          // Amounts typed already are read in the new account's currency, or stay in theirs without one.
          set({ account, ...(bounded ? { currency: amountCurrency({ account, currency }, accounts) } : {}) })
        }
      />
      <CounterpartyPicker label="Counterparty" selected={counterparty} onPick={(picked) => set({ counterparty: picked?.id })} />
      <Field label="Date from">
        {(control) => <input {...control} type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => set({ from: event.currentTarget.value })} />}
      </Field>
      <Field label="Date to">
        {(control) => <input {...control} type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => set({ to: event.currentTarget.value })} />}
      </Field>
      {!filters.account && (
        <SelectField label="Amount currency" value={currency} choices={currencies.map((code) => ({ value: code, label: code }))} onChange={(code) => set({ currency: code })} />
      )}
      <AmountBound label={`Amount from (${currency})`} value={filters.min} currency={currency} digits={digits} signed={false} onCommit={(plain) => set({ min: plain, currency })} />
      <AmountBound label={`Amount to (${currency})`} value={filters.max} currency={currency} digits={digits} signed={false} onCommit={(plain) => set({ max: plain, currency })} />
      {hasFilters(filters) && (
        <Link class="button quiet" to={withFilters(location, Object.fromEntries(Object.keys(filters).map((name) => [name, undefined])))}>
          Clear filters
        </Link>
      )}
    </form>
  )
}
