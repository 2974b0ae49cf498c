import { describe, expect, it } from 'vitest'
import { ACCOUNT_FAILURES_BEFORE_LOCKOUT, lockoutMilliseconds } from './session.policy.js'

describe('sign-in lockout', () => {
  it('locks from the fifth failure, doubling from 30 seconds up to 15 minutes', () => {
    const after = (failures: number) => lockoutMilliseconds(failures, ACCOUNT_FAILURES_BEFORE_LOCKOUT)
    expect([1, 2, 3, 4].map(after)).toEqual([0, 0, 0, 0])
    expect([5, 6, 7, 8, 9, 10, 11].map(after)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000])
    expect(after(60)).toBe(900_000)
  })
})
