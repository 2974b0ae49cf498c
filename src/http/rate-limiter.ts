/**
 * Exact sliding-window limiter: a key may make `limit` requests in any `windowMs` span
 * (spec: "measured over the past minute"). Each key keeps a ring of the times of its last
 * `limit` admitted requests, oldest at `head`; a request is admitted when the oldest of
 * those has left the window. State is per process.
 */
export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until one more request would be admitted (0 when one would be now). */
  resetSeconds: number
}

interface Ring {
  times: Float64Array
  head: number
  lastSeen: number
}

export class SlidingWindowRateLimiter {
  private readonly rings = new Map<string, Ring>()

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  take(key: string, now = Date.now()): RateDecision {
    const ring = this.ringFor(key, now)
    const windowStart = now - this.windowMs
    const allowed = ring.times[ring.head]! <= windowStart
    if (allowed) {
      ring.times[ring.head] = now
      ring.head = (ring.head + 1) % this.limit
    }
    ring.lastSeen = now
    const expired = this.countExpired(ring, windowStart)
    const oldestInWindow = ring.times[(ring.head + expired) % this.limit]!
    const resetSeconds = expired > 0 ? 0 : Math.max(1, Math.ceil((oldestInWindow + this.windowMs - now) / 1000))
    return { allowed, limit: this.limit, remaining: expired, resetSeconds }
  }

  private ringFor(key: string, now: number): Ring {
    let ring = this.rings.get(key)
    if (!ring) {
      if (this.rings.size >= this.maxKeys) this.evictIdle(now)
      ring = { times: new Float64Array(this.limit).fill(-Infinity), head: 0, lastSeen: now }
      this.rings.set(key, ring)
    }
    return ring
  }

  /** Entries in ring order are chronological from `head`; binary search for the first one inside the window. */
  private countExpired(ring: Ring, windowStart: number): number {
    let low = 0
    let high = this.limit
    while (low < high) {
      const middle = (low + high) >>> 1
      if (ring.times[(ring.head + middle) % this.limit]! <= windowStart) low = middle + 1
      else high = middle
    }
    return low
  }

  private evictIdle(now: number): void {
    for (const [key, ring] of this.rings) {
      if (ring.lastSeen <= now - this.windowMs) this.rings.delete(key)
    }
  }
}
