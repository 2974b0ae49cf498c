import { describe, expect, it } from 'vitest'
import { reconciliationStatusOf } from './transaction-reconciliation.js'

describe('reconciliationStatus (reference §2.3)', () => {
  it('is NOT_RECONCILED with nothing attached', () => {
    expect(reconciliationStatusOf(-150_00, 0, 0)).toBe('NOT_RECONCILED')
  })

  it('is PARTIALLY_RECONCILED while the attached amounts add up to less than the booked amount, whatever its sign', () => {
    expect(reconciliationStatusOf(-150_00, 1, 100_00)).toBe('PARTIALLY_RECONCILED')
    expect(reconciliationStatusOf(150_00, 1, 149_99)).toBe('PARTIALLY_RECONCILED')
    expect(reconciliationStatusOf(-150_00, 2, 0)).toBe('PARTIALLY_RECONCILED')
  })

  it('is RECONCILED once they add up to it', () => {
    expect(reconciliationStatusOf(-150_00, 2, 150_00)).toBe('RECONCILED')
    expect(reconciliationStatusOf(77_70, 1, 77_70)).toBe('RECONCILED')
  })
})
