/**
 * Exact sliding-window limiter: a key may make `limit` requests in any `windowMs` span
 * (spec: "measured over the past minute"). Each key keeps the times of its admitted requests still
 * inside the window as a queue in a ring buffer, oldest first; expired times are dropped from the
 * front as the window moves, so a request costs O(1) amortized and touches only the ring's ends.
 * State is per process: alone it is the limit of one process; the shared stores (rate-limits/) build on it.
 */
export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until one more request would be admitted (0 when one would be now). */
  resetSeconds: number
}

/** One limit's view of a key, wherever it is kept: in this process, the database or Redis (rate-limits/). */
export interface RateLimiter {
  /** Admits one more request for `key` if the window has room, and counts it. */
  take(key: string): RateDecision | Promise<RateDecision>
  /** Whether `key` has room for one more, counting nothing. */
  peek(key: string): RateDecision | Promise<RateDecision>
}

/**
 * What other processes admitted for a key in the window, as far as this one knows (rate-limits/database-store.ts):
 * how many, and when the earliest of them leaves the window.
 */
export interface OtherProcesses {
  count: number
  leavesAt: number
}

const NO_OTHERS: OtherProcesses = { count: 0, leavesAt: Number.POSITIVE_INFINITY }

interface Window {
  times: Float64Array
  /** Ring index of the oldest admitted time still in the window. */
  first: number
  /** How many admitted times are in the window. */
  count: number
  lastSeen: number
}

export class SlidingWindowRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>()

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  /**
   * Admits one more request for `key` if the window has room besides what `others` admitted, and counts it here
   * (only this process's own requests are kept; the others' are the caller's to know).
   */
  take(key: string, now = Date.now(), others = NO_OTHERS): RateDecision {
    const window = this.windowFor(key, now)
    this.expire(window, now)
    const allowed = window.count + others.count < this.limit
    if (allowed) {
      window.times[(window.first + window.count) % this.limit] = now
      window.count += 1
    }
    window.lastSeen = now
    return this.decision(window, allowed, now, others)
  }

  /** Whether `key` has room for one more, counting nothing (a key never seen here is not stored). */
  peek(key: string, now = Date.now(), others = NO_OTHERS): RateDecision {
    const window = this.windows.get(key)
    if (window) this.expire(window, now)
    return this.decision(window, (window?.count ?? 0) + others.count < this.limit, now, others)
  }

  private expire(window: Window, now: number): void {
    const windowStart = now - this.windowMs
    while (window.count > 0 && window.times[window.first]! <= windowStart) {
      window.first = (window.first + 1) % this.limit
      window.count -= 1
    }
  }

  /**
   * Reset: when the earliest admitted request — this process's oldest or the others' earliest — leaves the window,
   * which frees a place (exact for this process alone; with others counted, the earliest a retry can succeed).
   */
  private decision(window: Window | undefined, allowed: boolean, now: number, others: OtherProcesses): RateDecision {
    const own = window?.count ?? 0
    const remaining = Math.max(0, this.limit - own - others.count)
    const ownLeavesAt = own > 0 ? window!.times[window!.first]! + this.windowMs : Number.POSITIVE_INFINITY
    const resetSeconds = remaining > 0 ? 0 : Math.max(1, Math.ceil((Math.min(ownLeavesAt, others.leavesAt) - now) / 1000))
    return { allowed, limit: this.limit, remaining, resetSeconds }
  }

  private windowFor(key: string, now: number): Window {
    let window = this.windows.get(key)
    if (!window) {
      if (this.windows.size >= this.maxKeys) this.evictIdle(now)
      window = { times: new Float64Array(this.limit), first: 0, count: 0, lastSeen: now }
      this.windows.set(key, window)
    }
    return window
  }

  private evictIdle(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.lastSeen <= now - this.windowMs) this.windows.delete(key)
    }
  }
}
