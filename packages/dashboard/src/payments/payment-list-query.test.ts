import { describe, expect, it } from 'vitest'
import { amountCurrency, hasFilters, paymentFiltersOf, paymentListQuery } from './payment-list-query'

const ACCOUNTS = [
  { id: 'acc-sek', currency: 'SEK' },
  { id: 'acc-eur', currency: 'EUR' },
]

describe('amountCurrency: what the amount bounds are in', () => {
  it("is the chosen account's, else the one chosen for them, else the first account's, else EUR", () => {
    expect(amountCurrency({ account: 'acc-eur', currency: 'JPY' }, ACCOUNTS)).toBe('EUR')
    expect(amountCurrency({ account: '', currency: 'JPY' }, ACCOUNTS)).toBe('JPY')
    expect(amountCurrency({ account: '', currency: '' }, ACCOUNTS)).toBe('SEK')
    expect(amountCurrency({ account: '', currency: '' }, [])).toBe('EUR')
    // An account not (yet) read: the currency the address holds, which the page wrote with the bounds.
    expect(amountCurrency({ account: 'acc-unknown', currency: 'EUR' }, [])).toBe('EUR')
  })
})

describe('paymentListQuery: the address as the list endpoints take it', () => {
  it('sends amount bounds in minor units of their currency, with the currency', () => {
    const filters = paymentFiltersOf(new URLSearchParams('status=CREATED&min=100&max=1250.50&currency=EUR'))
    expect(paymentListQuery(filters, 'EUR')).toEqual({ status: 'CREATED', currency: 'EUR', 'amount[gte]': 100_00, 'amount[lte]': 1_250_50 })
    expect(paymentListQuery(paymentFiltersOf(new URLSearchParams('min=5000')), 'JPY')).toEqual({ currency: 'JPY', 'amount[gte]': 5000 })
  })

  it('sends no currency without a bound, and leaves out a bound that is no amount of the currency', () => {
    expect(paymentListQuery(paymentFiltersOf(new URLSearchParams('currency=SEK&account=acc-1')), 'SEK')).toEqual({ accountId: 'acc-1' })
    expect(paymentListQuery(paymentFiltersOf(new URLSearchParams('min=100.50&currency=JPY')), 'JPY')).toEqual({})
    // Payments are never negative: a minus is no amount here.
    expect(paymentListQuery(paymentFiltersOf(new URLSearchParams('max=-5')), 'EUR')).toEqual({})
  })
})

describe('hasFilters', () => {
  it('counts every filter but a currency alone, which only says what amounts are in', () => {
    expect(hasFilters(paymentFiltersOf(new URLSearchParams('')))).toBe(false)
    expect(hasFilters(paymentFiltersOf(new URLSearchParams('currency=SEK')))).toBe(false)
    expect(hasFilters(paymentFiltersOf(new URLSearchParams('currency=SEK&min=10')))).toBe(true)
    expect(hasFilters(paymentFiltersOf(new URLSearchParams('max=10')))).toBe(true)
    expect(hasFilters(paymentFiltersOf(new URLSearchParams('status=SENT')))).toBe(true)
  })
})
