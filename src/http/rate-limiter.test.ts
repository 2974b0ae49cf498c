import { describe, expect, it } from 'vitest'
import { SlidingWindowRateLimiter } from './rate-limiter.js'

describe('SlidingWindowRateLimiter', () => {
  it('admits `limit` requests in a window, then refuses with the seconds until the oldest leaves it', () => {
    const limiter = new SlidingWindowRateLimiter(3, 60_000)
    expect([0, 1_000, 2_000].map((at) => limiter.take('k', at).remaining)).toEqual([2, 1, 0])
    expect(limiter.take('k', 10_000)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 50 })
    expect(limiter.take('k', 59_999.5)).toMatchObject({ allowed: false, resetSeconds: 1 })
  })

  it('slides: each admitted request frees its place exactly one window later', () => {
    const limiter = new SlidingWindowRateLimiter(2, 1_000)
    expect(limiter.take('k', 0).allowed).toBe(true)
    expect(limiter.take('k', 500).allowed).toBe(true)
    expect(limiter.take('k', 999).allowed).toBe(false)
    expect(limiter.take('k', 1_000)).toMatchObject({ allowed: true, remaining: 0 })
    expect(limiter.take('k', 1_499).allowed).toBe(false)
    expect(limiter.take('k', 1_500)).toMatchObject({ allowed: true, remaining: 0 })
    expect(limiter.take('k', 10_000)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 0 })
  })

  it('does not count refused requests', () => {
    const limiter = new SlidingWindowRateLimiter(1, 1_000)
    limiter.take('k', 0)
    for (let at = 1; at < 1_000; at += 100) expect(limiter.take('k', at).allowed).toBe(false)
    expect(limiter.take('k', 1_000).allowed).toBe(true)
  })

  it('keeps its ring in order across many wrap-arounds', () => {
    const limiter = new SlidingWindowRateLimiter(5, 1_000)
    let admitted = 0
    for (let at = 0; at < 20_000; at += 50) if (limiter.take('k', at).allowed) admitted += 1
    // 5 per 1,000 ms over 20,000 ms.
    expect(admitted).toBe(100)
  })

  it('keeps a separate budget per key', () => {
    const limiter = new SlidingWindowRateLimiter(1, 60_000)
    expect(limiter.take('a', 0).allowed).toBe(true)
    expect(limiter.take('a', 1).allowed).toBe(false)
    expect(limiter.take('b', 1).allowed).toBe(true)
  })

  it('peeks without counting: a full window refuses until its oldest leaves, an unknown key has room', () => {
    const limiter = new SlidingWindowRateLimiter(2, 1_000)
    expect(limiter.peek('k', 0)).toEqual({ allowed: true, limit: 2, remaining: 2, resetSeconds: 0 })
    limiter.take('k', 0)
    expect(limiter.peek('k', 100)).toMatchObject({ allowed: true, remaining: 1 })
    expect(limiter.peek('k', 100)).toMatchObject({ allowed: true, remaining: 1 })
    limiter.take('k', 200)
    expect(limiter.peek('k', 300)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1 })
    expect(limiter.peek('k', 1_000)).toMatchObject({ allowed: true, remaining: 1 })
  })
})

describe('SlidingWindowRateLimiter with other processes’ counts (rate-limits/database-store.ts)', () => {
  it('admits only while its own and the others’ requests together are under the limit', () => {
    const limiter = new SlidingWindowRateLimiter(4, 60_000)
    const others = { count: 2, leavesAt: 30_000 }
    expect(limiter.take('k', 0, others)).toEqual({ allowed: true, limit: 4, remaining: 1, resetSeconds: 0 })
    // Full: the earliest a place frees is when the others' oldest leaves (30 s), before this process's own (60 s).
    expect(limiter.take('k', 1_000, others)).toEqual({ allowed: true, limit: 4, remaining: 0, resetSeconds: 29 })
    expect(limiter.take('k', 2_000, others)).toEqual({ allowed: false, limit: 4, remaining: 0, resetSeconds: 28 })
    expect(limiter.peek('k', 2_000, others)).toMatchObject({ allowed: false, remaining: 0 })
    // The others' requests gone, only its own two count.
    expect(limiter.take('k', 3_000)).toMatchObject({ allowed: true, remaining: 1 })
  })

  it('refuses a key it never saw when the others alone fill the window, with the others’ reset', () => {
    const limiter = new SlidingWindowRateLimiter(2, 60_000)
    expect(limiter.peek('k', 0, { count: 2, leavesAt: 4_500 })).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 5 })
    expect(limiter.take('k', 0, { count: 3, leavesAt: 4_500 })).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 5 })
  })
})
