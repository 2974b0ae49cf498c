import { withFilters } from '../api/use-list-page'
import { amountBoundsQuery } from '../payments/amount-entry'
import { Link } from '../router/link'
import { navigate, useLocation } from '../router/router'
import { AmountBound } from '../ui/amount-bound'
import { Field } from '../ui/field'
import { SelectField } from '../ui/select-field'
import type { Transaction } from './account-types'
import { RECONCILIATION_STATUSES, reconciliationLabel } from './transactions-table'

/**
 * An account's transaction filters as the address holds them (?from=…&to=…&reconciliation=…&min=…&max=…),
 * amounts in plain decimals ("-1250.50") so a link reads the same in every locale. They are the filters
 * the transactions list takes (TransactionListQuery); amounts are signed, outflows negative.
 */
export interface TransactionFilters {
  from: string
  to: string
  reconciliation: Transaction['reconciliationStatus'] | ''
  min: string
  max: string
}

export function transactionFiltersOf(query: URLSearchParams): TransactionFilters {
  return {
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    reconciliation: (query.get('reconciliation') ?? '') as TransactionFilters['reconciliation'],
    min: query.get('min') ?? '',
    max: query.get('max') ?? '',
  }
}

/** The filters as the list endpoint names them, amounts in minor units; an amount that is no amount is left out. */
export function transactionListQuery(filters: TransactionFilters, digits: number) {
  return {
    ...(filters.from ? { 'date[gte]': filters.from } : {}),
    ...(filters.to ? { 'date[lte]': filters.to } : {}),
    ...(filters.reconciliation ? { reconciliationStatus: filters.reconciliation } : {}),
    ...amountBoundsQuery(filters, digits, { signed: true }),
  }
}

export function TransactionFilterBar({ filters, currency, digits }: { filters: TransactionFilters; currency: string; digits: number }) {
  const location = useLocation()
  const set = (name: keyof TransactionFilters, value: string | undefined) => navigate(withFilters(location, { [name]: value }))
  const any = Object.values(filters).some((value) => value !== '')

  return (
    <form class="filters filters-row" role="search" aria-label="Filter transactions" onSubmit={(event) => event.preventDefault()}>
      <Field label="Booked from">
        {(control) => <input {...control} type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => set('from', event.currentTarget.value)} />}
      </Field>
      <Field label="Booked to">
        {(control) => <input {...control} type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => set('to', event.currentTarget.value)} />}
      </Field>
      <SelectField
        label="Reconciliation"
        value={filters.reconciliation}
        none="Any"
        choices={RECONCILIATION_STATUSES.map((status) => ({ value: status, label: reconciliationLabel(status) }))}
        onChange={(status) => set('reconciliation', status)}
      />
      <AmountBound label={`Amount from (${currency})`} value={filters.min} currency={currency} digits={digits} signed onCommit={(plain) => set('min', plain)} />
      <AmountBound label={`Amount to (${currency})`} value={filters.max} currency={currency} digits={digits} signed onCommit={(plain) => set('max', plain)} />
      {any && (
        <Link class="button quiet" to={withFilters(location, { from: undefined, to: undefined, reconciliation: undefined, min: undefined, max: undefined })}>
          Clear filters
        </Link>
      )}
    </form>
  )
}
