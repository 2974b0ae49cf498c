import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRY_SCHEDULE, retryDelay } from './retry-schedule.js'

describe('webhook retry schedule', () => {
  it('doubles from the initial delay up to the cap, with at most half of it random', () => {
    const highest = (n: number) => retryDelay(DEFAULT_RETRY_SCHEDULE, n, () => 1)
    const lowest = (n: number) => retryDelay(DEFAULT_RETRY_SCHEDULE, n, () => 0)
    expect([1, 2, 3, 4].map(highest)).toEqual([10_000, 20_000, 40_000, 80_000])
    expect([1, 2, 3, 4].map(lowest)).toEqual([5_000, 10_000, 20_000, 40_000])
    expect(highest(9)).toBe(2_560_000)
    expect(highest(10)).toBe(3_600_000)
    expect(highest(500)).toBe(3_600_000)
    expect(lowest(500)).toBe(1_800_000)
  })

  it('keeps retrying for at least 24 hours, in a few dozen attempts', () => {
    for (const random of [() => 0, () => 1]) {
      let elapsed = 0
      let attempts = 1
      while (elapsed < DEFAULT_RETRY_SCHEDULE.retryForMilliseconds) {
        elapsed += retryDelay(DEFAULT_RETRY_SCHEDULE, attempts, random)
        attempts += 1
      }
      expect(elapsed).toBeGreaterThanOrEqual(24 * 3_600_000)
      expect(attempts).toBeGreaterThan(20)
      expect(attempts).toBeLessThan(60)
    }
  })
})
