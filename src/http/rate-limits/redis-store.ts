import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { SlidingWindowRateLimiter, type RateDecision, type RateLimiter } from '../rate-limiter.js'
import { createOutage, type StoreLog } from './outage.js'
import type { RateLimitStore } from './rate-limit-store.js'

export interface RedisStoreOptions {
  url: string
  /** Prepended to every key: lets deployments (and tests) share one Redis. */
  keyPrefix: string
  log: StoreLog
  windowMs: number
  /** How long start-up waits for the first connection before serving with per-process limits meanwhile. */
  connectTimeoutMs?: number
}

/**
 * An exact sliding log per key, in one atomic script: the times of the admitted requests are a sorted set, those a
 * window old are dropped, one more is added if the set has room, and the key expires a window after its last
 * admitted request, so idle keys leave Redis by themselves. Time is Redis's own (TIME), one clock for every
 * machine. Returns {allowed 0/1, count in the window, milliseconds until its oldest leaves it when full}.
 */
const SLIDING_LOG = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  allowed = 1
  if ARGV[3] == '1' then
    redis.call('ZADD', KEYS[1], now, ARGV[4])
    redis.call('PEXPIRE', KEYS[1], window)
    count = count + 1
  end
end
local reset = 0
if count >= limit then
  reset = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]) + window - now
end
return {allowed, count, reset}
`

type SlidingLogClient = Redis & {
  slidingLog(key: string, windowMs: number, limit: number, take: '0' | '1', member: string): Promise<[number, number, number]>
}

/**
 * Rate limits in Redis, shared and exact across every process and machine using it (issue 14): one round trip per
 * check. Commands fail at once when the connection is down (no offline queue) and after 500 ms when Redis does
 * not answer; meanwhile each process falls back to its own in-process limits — neither fail-open (unlimited
 * guessing of secrets) nor fail-closed (an outage of the API because a cache is down) — logged once when lost and
 * once when back. The client reconnects by itself.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RateLimitStore> {
  const { windowMs } = options
  const outage = createOutage(options.log, 'Redis', 'each process enforces the limits on its own until it answers')
  const client = new Redis(options.url, {
    keyPrefix: options.keyPrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    // Checks issued in the same tick (a request's address and key) share one round trip.
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  }) as SlidingLogClient
  client.defineCommand('slidingLog', { numberOfKeys: 1, lua: SLIDING_LOG })
  let closing = false
  client.on('ready', () => outage.restored())
  client.on('error', (error) => outage.lost(error))
  client.on('close', () => closing || outage.lost())
  await connect(client, options.connectTimeoutMs ?? 2_000)

  // Members of a sorted set must differ: this store's id and a counter.
  const store = randomUUID()
  let sequence = 0

  return {
    kind: 'redis',

    limiter(name: string, limit: number): RateLimiter {
      const fallback = new SlidingWindowRateLimiter(limit, windowMs)

      function check(key: string, take: boolean): RateDecision | Promise<RateDecision> {
        const local = () => (take ? fallback.take(key) : fallback.peek(key))
        if (client.status !== 'ready') return local()
        sequence += 1
        return client.slidingLog(`${name}:${key}`, windowMs, limit, take ? '1' : '0', `${store}:${sequence}`).then(
          ([allowed, count, resetMs]) => {
            // Answered again after timeouts on a connection that never dropped (no 'ready' to say so).
            outage.restored()
            const remaining = Math.max(0, limit - count)
            return { allowed: allowed === 1, limit, remaining, resetSeconds: remaining > 0 ? 0 : Math.max(1, Math.ceil(resetMs / 1000)) }
          },
          (error: unknown) => {
            outage.lost(error)
            return local()
          },
        )
      }

      return { take: (key) => check(key, true), peek: (key) => check(key, false) }
    },

    async close(): Promise<void> {
      closing = true
      client.disconnect()
    },
  }
}

/**
 * The first connection, waited for until it is ready, refused, or `timeoutMs` passed; the client goes on
 * reconnecting in the background (its connect() would wait through every retry).
 */
async function connect(client: Redis, timeoutMs: number): Promise<void> {
  const settled = new AbortController()
  client.connect().catch(() => undefined)
  await Promise.race([
    once(client, 'ready', { signal: settled.signal }),
    once(client, 'error', { signal: settled.signal }),
    sleep(timeoutMs, undefined, { signal: settled.signal }),
  ]).catch(() => undefined)
  settled.abort()
}
