import type { RateLimiter } from '../rate-limiter.js'

export interface LimiterOptions {
  /**
   * Every counted request reaches the shared store before `take` settles, rather than with the next batch: for
   * failed authentications, which are rare and whose limit guards secrets (issue 14).
   */
  immediate?: boolean
}

/**
 * Where the rate limits of every process serving one Kassa are kept, so that they hold across processes and
 * machines (issue 14): Redis when REDIS_URL is set (redis-store.ts), otherwise the database (database-store.ts).
 */
export interface RateLimitStore {
  readonly kind: 'redis' | 'database'
  /** The limit called `name` (its own namespace of keys): `limit` requests per key in any window. */
  limiter(name: string, limit: number, options?: LimiterOptions): RateLimiter
  /** Stops background work and hands over what is still counted locally; the store is not used after. */
  close(): Promise<void>
}
