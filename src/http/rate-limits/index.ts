import type { Database } from '../../db/database.js'
import { openDatabaseStore } from './database-store.js'
import type { StoreLog } from './outage.js'
import type { RateLimitStore } from './rate-limit-store.js'
import { openRedisStore } from './redis-store.js'

export type { RateLimitStore } from './rate-limit-store.js'

export interface RateLimitStoreOptions {
  /** REDIS_URL: the limits in Redis when set, otherwise in the database. */
  redisUrl?: string | undefined
  database: Database
  log: StoreLog
  /** The window every limit is measured over: the past minute (spec: Limits) unless given. */
  windowMs?: number
  /** Database store: how often each process shares its counts; 250 ms unless given. */
  syncMilliseconds?: number
  /** Redis store: the prefix of its keys; `kassa:rate-limits:` unless given. */
  redisKeyPrefix?: string
}

/** The store every process of one Kassa shares its rate limits through (issue 14). */
export async function openRateLimitStore(options: RateLimitStoreOptions): Promise<RateLimitStore> {
  const windowMs = options.windowMs ?? 60_000
  const store = options.redisUrl
    ? await openRedisStore({ url: options.redisUrl, keyPrefix: options.redisKeyPrefix ?? 'kassa:rate-limits:', log: options.log, windowMs })
    : openDatabaseStore({ database: options.database, log: options.log, windowMs, syncMilliseconds: options.syncMilliseconds ?? 250 })
  options.log.info(`rate limits: shared across processes through ${store.kind === 'redis' ? 'Redis' : 'the database'}`)
  return store
}
