import { describe, expect, it } from 'vitest'
import {
  PAYMENT_STATUSES,
  UNSETTLED_STATUSES,
  assertCorrection,
  assertTransition,
  canCorrect,
  canTransition,
  isDateEditable,
  isFinal,
  isSettled,
  isWithBank,
  pathTo,
  type PaymentStatus,
} from './payment-status.js'

const allowed: Array<[PaymentStatus, PaymentStatus]> = [
  ['CREATED', 'APPROVED'],
  ['CREATED', 'REJECTED'],
  ['APPROVED', 'PENDING_SUBMISSION'],
  ['PENDING_SUBMISSION', 'SENT'],
  ['PENDING_SUBMISSION', 'FAILED'],
  ['SENT', 'ACCEPTED'],
  ['SENT', 'PENDING_AT_BANK'],
  ['SENT', 'FAILED'],
  ['PENDING_AT_BANK', 'ACCEPTED'],
  ['PENDING_AT_BANK', 'FAILED'],
  ['ACCEPTED', 'EXECUTED'],
  ['ACCEPTED', 'FAILED'],
  ['EXECUTED', 'RECONCILED'],
  ['EXECUTED', 'RETURNED'],
  ['RECONCILED', 'RETURNED'],
  ['CREATED', 'CANCELLED'],
  ['APPROVED', 'CANCELLED'],
  ['PENDING_SUBMISSION', 'CANCELLED'],
]

describe('payment lifecycle', () => {
  it('allows exactly the listed transitions', () => {
    for (const from of PAYMENT_STATUSES) {
      for (const to of PAYMENT_STATUSES) {
        const expected = allowed.some(([a, b]) => a === from && b === to)
        expect(canTransition(from, to), `${from} → ${to}`).toBe(expected)
      }
    }
  })

  it('refuses illegal moves with a message naming both statuses', () => {
    expect(() => assertTransition('SENT', 'APPROVED')).toThrow('A payment cannot move from SENT to APPROVED')
    expect(() => assertTransition('REJECTED', 'APPROVED')).toThrow()
    expect(() => assertTransition('CREATED', 'APPROVED')).not.toThrow()
  })

  it('knows final statuses, when the date may change, and when the bank has the payment', () => {
    expect(PAYMENT_STATUSES.filter(isFinal)).toEqual(['REJECTED', 'FAILED', 'RETURNED', 'CANCELLED'])
    expect(PAYMENT_STATUSES.filter(isSettled)).toEqual(['REJECTED', 'RECONCILED', 'FAILED', 'RETURNED', 'CANCELLED'])
    expect(UNSETTLED_STATUSES).toEqual(['CREATED', 'APPROVED', 'PENDING_SUBMISSION', 'SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED'])
    expect(PAYMENT_STATUSES.filter(isDateEditable)).toEqual(['CREATED', 'APPROVED'])
    expect(PAYMENT_STATUSES.filter(isWithBank)).toEqual(['SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED', 'RECONCILED', 'RETURNED'])
  })

  it('cancels exactly what the bank does not have yet and is not final', () => {
    const cancellable = PAYMENT_STATUSES.filter((status) => canTransition(status, 'CANCELLED'))
    expect(cancellable).toEqual(['CREATED', 'APPROVED', 'PENDING_SUBMISSION'])
    for (const status of PAYMENT_STATUSES) expect(cancellable.includes(status), status).toBe(!isWithBank(status) && !isFinal(status))
  })

  it('finds the path a bank report implies, step by step', () => {
    expect(pathTo('SENT', 'EXECUTED')).toEqual(['ACCEPTED', 'EXECUTED'])
    expect(pathTo('SENT', 'RETURNED')).toEqual(['ACCEPTED', 'EXECUTED', 'RETURNED'])
    expect(pathTo('PENDING_AT_BANK', 'ACCEPTED')).toEqual(['ACCEPTED'])
    expect(pathTo('ACCEPTED', 'ACCEPTED')).toEqual([])
    expect(pathTo('FAILED', 'EXECUTED')).toBeUndefined()
    expect(pathTo('EXECUTED', 'ACCEPTED')).toBeUndefined()
  })

  it('never lets a bank report take a RECONCILED payment back to EXECUTED: only a correction by hand does', () => {
    expect(pathTo('RECONCILED', 'EXECUTED')).toBeUndefined()
    expect(canTransition('RECONCILED', 'EXECUTED')).toBe(false)
    expect(() => assertTransition('RECONCILED', 'EXECUTED')).toThrow('A payment cannot move from RECONCILED to EXECUTED')
    expect(() => assertCorrection('RECONCILED', 'EXECUTED')).not.toThrow()
  })

  it('allows exactly one correction, RECONCILED → EXECUTED', () => {
    for (const from of PAYMENT_STATUSES) {
      for (const to of PAYMENT_STATUSES) expect(canCorrect(from, to), `${from} → ${to}`).toBe(from === 'RECONCILED' && to === 'EXECUTED')
    }
    expect(() => assertCorrection('RETURNED', 'EXECUTED')).toThrow('A payment cannot move from RETURNED to EXECUTED')
  })
})
