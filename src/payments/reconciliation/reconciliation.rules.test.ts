import { describe, expect, it } from 'vitest'
import { PAYMENT_STATUSES } from '../lifecycle/payment-status.js'
import { ATTACHABLE_STATUSES, mismatchOf, whyNotAttachable, whyNotDetachable, type MatchedPayment, type MatchedTransaction } from './reconciliation.rules.js'

const transfer: MatchedPayment = { kind: 'CREDIT_TRANSFER', accountId: 'operating', currency: 'EUR', amount: 100_00 }
const outflow: MatchedTransaction = { accountId: 'operating', currency: 'EUR', amount: -150_00, attachedTotal: 0 }

describe('which payments may be attached', () => {
  it('attaches exactly what the bank has and is not final', () => {
    expect(PAYMENT_STATUSES.filter((status) => whyNotAttachable(status, []) === undefined)).toEqual(['SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED'])
    expect(ATTACHABLE_STATUSES).toHaveLength(4)
  })

  it('says why for every other status', () => {
    for (const status of ['CREATED', 'APPROVED', 'PENDING_SUBMISSION'] as const) expect(whyNotAttachable(status, [])).toContain('never sent to the bank')
    for (const status of ['REJECTED', 'FAILED', 'CANCELLED'] as const) {
      expect(whyNotAttachable(status, [])).toBe(`The payment is ${status}, which is final: it was never executed, so no booking can be its execution`)
    }
    expect(whyNotAttachable('RETURNED', [])).toContain('the bank returned it')
    expect(whyNotAttachable('RECONCILED', ['t-1'])).toBe('The payment is already RECONCILED to transaction t-1: detach it there first')
  })

  it('detaches only a RECONCILED payment attached to the transaction', () => {
    expect(whyNotDetachable('RECONCILED', true, 't-1')).toBeUndefined()
    expect(whyNotDetachable('RECONCILED', false, 't-1')).toBe('The payment is not attached to transaction t-1')
    expect(whyNotDetachable('RETURNED', true, 't-1')).toContain('only a RECONCILED payment is detached by hand')
    expect(whyNotDetachable('EXECUTED', true, 't-1')).toContain('The payment is EXECUTED')
  })
})

describe('whether a payment matches a booking', () => {
  it('matches a credit transfer to money out on its source account, up to the booked amount', () => {
    expect(mismatchOf(transfer, outflow)).toBeUndefined()
    expect(mismatchOf(transfer, { ...outflow, attachedTotal: 50_00 })).toBeUndefined()
    expect(mismatchOf(transfer, { ...outflow, attachedTotal: 50_01 })).toMatchObject({ field: 'amount.value' })
  })

  it('matches a direct debit to money in on its destination account', () => {
    const debit: MatchedPayment = { ...transfer, kind: 'DIRECT_DEBIT' }
    expect(mismatchOf(debit, { ...outflow, amount: 100_00 })).toBeUndefined()
    expect(mismatchOf(debit, outflow)).toMatchObject({ field: 'type' })
    expect(mismatchOf(debit, { ...outflow, accountId: 'payroll', amount: 100_00 })).toMatchObject({ field: 'destination.id' })
  })

  it('names the field that does not match, the account first', () => {
    expect(mismatchOf(transfer, { ...outflow, accountId: 'payroll', currency: 'SEK' })).toEqual({
      field: 'source.id',
      error: "the payment's own account operating is not the transaction's account payroll",
    })
    expect(mismatchOf(transfer, { ...outflow, currency: 'SEK' })).toEqual({ field: 'amount.currency', error: 'the payment is in EUR, the transaction in SEK' })
    expect(mismatchOf(transfer, { ...outflow, amount: 150_00 })).toMatchObject({ field: 'type' })
    expect(mismatchOf(transfer, { ...outflow, amount: -99_99 })).toMatchObject({ field: 'amount.value' })
  })
})
