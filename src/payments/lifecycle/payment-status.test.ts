import { describe, expect, it } from 'vitest'
import { PAYMENT_STATUSES, assertTransition, canTransition, isDateEditable, isFinal, pathTo, type PaymentStatus } from './payment-status.js'

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

  it('knows final statuses and when the date may change', () => {
    expect(PAYMENT_STATUSES.filter(isFinal)).toEqual(['REJECTED', 'FAILED', 'RETURNED'])
    expect(PAYMENT_STATUSES.filter(isDateEditable)).toEqual(['CREATED', 'APPROVED'])
  })

  it('finds the path a bank report implies, step by step', () => {
    expect(pathTo('SENT', 'EXECUTED')).toEqual(['ACCEPTED', 'EXECUTED'])
    expect(pathTo('SENT', 'RETURNED')).toEqual(['ACCEPTED', 'EXECUTED', 'RETURNED'])
    expect(pathTo('PENDING_AT_BANK', 'ACCEPTED')).toEqual(['ACCEPTED'])
    expect(pathTo('ACCEPTED', 'ACCEPTED')).toEqual([])
    expect(pathTo('FAILED', 'EXECUTED')).toBeUndefined()
    expect(pathTo('EXECUTED', 'ACCEPTED')).toBeUndefined()
  })
})
