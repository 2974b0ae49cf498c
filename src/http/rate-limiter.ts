/**
 * Exact sliding-window limiter: a key may make `limit` requests in any `windowMs` span
 * (spec: "measured over the past minute"). Each key keeps the times of its admitted requests still
 * inside the window as a queue in a ring buffer, oldest first; expired times are dropped from the
 * front as the window moves, so a request costs O(1) amortized and touches only the ring's ends.
 * State is per process.
 */
export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until one more request would be admitted (0 when one would be now). */
  resetSeconds: number
}

interface Window {
  times: Float64Array
  /** Ring index of the oldest admitted time still in the window. */
  first: number
  /** How many admitted times are in the window. */
  count: number
  lastSeen: number
}

export class SlidingWindowRateLimiter {
  private readonly windows = new Map<string, Window>()

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  /** Admits one more request for `key` if the window has room, and counts it. */
  take(key: string, now = Date.now()): RateDecision {
    const window = this.windowFor(key, now)
    this.expire(window, now)
    const allowed = window.count < this.limit
    if (allowed) {
      window.times[(window.first + window.count) % this.limit] = now
      window.count += 1
    }
    window.lastSeen = now
    return this.decision(window, allowed, now)
  }

  /** Whether `key` has room for one more, counting nothing (a key never seen has room, and is not stored). */
  peek(key: string, now = Date.now()): RateDecision {
    const window = this.windows.get(key)
    if (!window) return { allowed: true, limit: this.limit, remaining: this.limit, resetSeconds: 0 }
    this.expire(window, now)
    return this.decision(window, window.count < this.limit, now)
  }

  private expire(window: Window, now: number): void {
    const windowStart = now - this.windowMs
    while (window.count > 0 && window.times[window.first]! <= windowStart) {
      window.first = (window.first + 1) % this.limit
      window.count -= 1
    }
  }

  private decision(window: Window, allowed: boolean, now: number): RateDecision {
    const remaining = this.limit - window.count
    const resetSeconds = remaining > 0 ? 0 : Math.max(1, Math.ceil((window.times[window.first]! + this.windowMs - now) / 1000))
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
