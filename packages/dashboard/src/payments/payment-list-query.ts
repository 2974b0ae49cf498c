import type { Account } from '../accounts/account-types'
import type { Payment } from '../api/types'
import { amountBoundsQuery, currencyDigits } from './amount-entry'

type Status = Payment['status']

/**
 * The filters of the payment lists, as the address holds them
 * (?status=…&account=…&counterparty=…&from=…&to=…&min=…&max=…&currency=…), so a filtered list is a link to
 * share. They are the filters both list endpoints take (CreditTransferListQuery, DirectDebitListQuery).
 * Amounts are plain decimals ("1250.50"), so a link reads the same in every locale, in `currency`: minor
 * units compare only within one currency.
 */
export interface PaymentFilters {
  status: Status | ''
  account: string
  counterparty: string
  from: string
  to: string
  min: string
  max: string
  /** What the amounts are in, when no account is chosen (amountCurrency); alone it filters nothing. */
  currency: string
}

export function paymentFiltersOf(query: URLSearchParams): PaymentFilters {
  return {
    status: (query.get('status') ?? '') as Status | '',
    account: query.get('account') ?? '',
    counterparty: query.get('counterparty') ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    min: query.get('min') ?? '',
    max: query.get('max') ?? '',
    currency: query.get('currency') ?? '',
  }
}

/**
 * The currency the amount bounds are in: the chosen account's (its payments are all in it), else the one
 * chosen for them, else that of the organization's first account, else EUR.
 */
export function amountCurrency(filters: Pick<PaymentFilters, 'account' | 'currency'>, accounts: readonly Pick<Account, 'id' | 'currency'>[]): string {
  const account = filters.account ? accounts.find((candidate) => candidate.id === filters.account) : undefined
  return account?.currency ?? (filters.currency || accounts[0]?.currency || 'EUR')
}

/** The filters as the list endpoints name them, amounts in minor units of `currency` and sent with it; unset ones left out. */
export function paymentListQuery(filters: PaymentFilters, currency: string) {
  const amounts = amountBoundsQuery(filters, currencyDigits(currency))
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.account ? { accountId: filters.account } : {}),
    ...(filters.counterparty ? { counterpartyId: filters.counterparty } : {}),
    ...(filters.from ? { 'date[gte]': filters.from } : {}),
    ...(filters.to ? { 'date[lte]': filters.to } : {}),
    ...(Object.keys(amounts).length > 0 ? { currency, ...amounts } : {}),
  }
}

/** Whether anything filters the list: the currency alone does not, it only says what the amounts are in. */
export function hasFilters(filters: PaymentFilters): boolean {
  return Object.entries(filters).some(([name, value]) => name !== 'currency' && value !== '')
}
