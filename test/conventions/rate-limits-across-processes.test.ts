import { Redis } from 'ioredis'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ApiApp } from '../../src/http/api-app.js'
import type { Credentials } from '../../src/iam/index.js'
import * as rateLimitHitsMigration from '../../src/db/migrations/0022-rate-limit-hits.js'
import type { RateDecision } from '../../src/http/rate-limiter.js'
import { openDatabaseStore } from '../../src/http/rate-limits/database-store.js'
import { createTestDatabase } from '../support/test-database.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { COUNTERPARTIES, expectError } from './expectations.js'
import { RATE_LIMIT_STORES, REDIS_URL, instanceOn, logDestination, redisKeyPrefix, redisRelay } from './shared-rate-limits.js'

/**
 * Issue 14: the rate limit and the limit on failed authentications hold across processes — in Redis when REDIS_URL
 * is set, otherwise in the database. Two app instances on one database stand for two processes (or machines):
 * neither shares memory with the other, only the store.
 */
function get(app: ApiApp, authorization: string, remoteAddress = '127.0.0.1') {
  return app.inject({ method: 'GET', url: COUNTERPARTIES, headers: { authorization }, remoteAddress })
}

describe.each(RATE_LIMIT_STORES)('rate limits shared by two instances: $name', (store) => {
  const LIMIT = 4
  const FAILURES = 3
  let t: TestApp
  let other: ApiApp
  beforeAll(async () => {
    const options = store.options()
    t = await startTestApp({ rateLimitPerMinute: LIMIT, failedAuthenticationsPerMinute: FAILURES, paymentWorkerIntervalMilliseconds: false, ...options })
    other = await instanceOn(t.db.database, { rateLimitPerMinute: LIMIT, failedAuthenticationsPerMinute: FAILURES, redisUrl: options.redisUrl }, options.rateLimits)
  })
  afterAll(async () => {
    await other.close()
    await t.close()
  })

  it('counts requests split across both against one limit: RateLimit-Remaining counts down on either, then both refuse', async () => {
    const key = await t.newKey('admin')
    const seen: Array<[number, number]> = []
    for (let i = 0; i < 2 * LIMIT; i += 1) {
      const response = await get(i % 2 === 0 ? t.app : other, basicAuth(key))
      seen.push([response.statusCode, Number(response.headers['ratelimit-remaining'])])
      if (response.statusCode === 429) expectError(response, 429, 'rate_limited')
      await store.settle()
    }
    expect(seen).toEqual([[200, 3], [200, 2], [200, 1], [200, 0], [429, 0], [429, 0], [429, 0], [429, 0]])
  })

  it('holds a burst split across both: exactly the limit in Redis, at most the limit per instance in the database', async () => {
    const key = await t.newKey('admin')
    const burst = await Promise.all(Array.from({ length: 6 * LIMIT }, (_, i) => get(i % 2 === 0 ? t.app : other, basicAuth(key))))
    const admitted = burst.filter((response) => response.statusCode === 200).length
    expect(burst.filter((response) => response.statusCode === 429)).toHaveLength(6 * LIMIT - admitted)
    // Redis counts atomically; the database store sees the other instance's requests only at its next sync (the documented overshoot).
    if (store.name === 'redis') expect(admitted).toBe(LIMIT)
    else expect(admitted).toBeLessThanOrEqual(2 * LIMIT)
    expect(admitted).toBeGreaterThanOrEqual(LIMIT)
  })

  it('refuses a key on both once its secret was wrong too often across both, its right secret too; other keys go on', async () => {
    const attacked = await t.newKey('admin')
    for (let attempt = 0; attempt < FAILURES; attempt += 1) {
      const response = await get(attempt % 2 === 0 ? t.app : other, basicAuth({ ...attacked, secret: 'guess' }), `10.20.0.${attempt}`)
      expect(response.statusCode).toBe(401)
      await store.settle()
    }
    for (const app of [t.app, other]) {
      const refused = await get(app, basicAuth(attacked), '10.20.1.1')
      expectError(refused, 429, 'too_many_failed_authentications')
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    }
    expect((await get(other, basicAuth(t.owner), '10.20.1.1')).statusCode).toBe(200)
  })

  it('refuses an address on both once it failed too often across both, whichever keys it tried', async () => {
    for (let attempt = 0; attempt < FAILURES; attempt += 1) {
      const response = await get(attempt % 2 === 0 ? other : t.app, basicAuth({ accessKey: `KAGUESS${attempt}`, secret: 'guess' }), '10.21.0.1')
      expect(response.statusCode).toBe(401)
      await store.settle()
    }
    for (const app of [t.app, other]) expectError(await get(app, basicAuth(t.owner), '10.21.0.1'), 429, 'too_many_failed_authentications')
    expect((await get(t.app, basicAuth(t.owner), '10.21.0.2')).statusCode).toBe(200)
  })
})

describe('rate limits in the database: expiry', () => {
  let t: TestApp
  let other: ApiApp
  // A one-second window, so that the test sees requests leave it.
  const rateLimits = { windowMs: 1_000, syncMilliseconds: 25 }
  beforeAll(async () => {
    t = await startTestApp({ rateLimitPerMinute: 2, paymentWorkerIntervalMilliseconds: false, rateLimits })
    other = await instanceOn(t.db.database, { rateLimitPerMinute: 2 }, rateLimits)
  })
  afterAll(async () => {
    await other.close()
    await t.close()
  })

  /** The request counts of the only key this database's apps limit. */
  async function rows() {
    return t.db.database.db.selectFrom('rate_limit_hits').select(['at_second', 'hits']).where('limiter', '=', 'requests').execute()
  }

  it('admits again once the window has passed, and deletes the rows of past windows', async () => {
    const key = await t.newKey('admin')
    expect((await get(t.app, basicAuth(key))).statusCode).toBe(200)
    expect((await get(other, basicAuth(key))).statusCode).toBe(200)
    await sleep(300)
    expect((await rows()).reduce((sum, row) => sum + Number(row.hits), 0)).toBe(2)

    await sleep(1_200)
    expect((await get(t.app, basicAuth(key))).statusCode).toBe(200)
    // Cleaned once per window by each instance: after two more windows nothing older than one window is left.
    await sleep(2_500)
    const oldest = Math.floor(Date.now() / 1000) - 2
    expect((await rows()).filter((row) => Number(row.at_second) < oldest)).toEqual([])
  })
})

describe('rate limits in the database: the database failing', () => {
  it('goes on with per-process counts, warns once however many syncs fail, and says once when it answers again', async () => {
    const db = await createTestDatabase()
    const log = { info: vi.fn(), warn: vi.fn() }
    const store = openDatabaseStore({ database: db.database, log, windowMs: 60_000, syncMilliseconds: 20 })
    const limiter = store.limiter('requests', 2)
    try {
      // Every sync fails while the table is gone, as every statement would with the database down.
      await db.database.db.schema.dropTable('rate_limit_hits').execute()
      expect([0, 1, 2].map(() => (limiter.take('k') as RateDecision).allowed)).toEqual([true, true, false])
      await vi.waitFor(() => expect(log.warn).toHaveBeenCalledTimes(1), { timeout: 5_000, interval: 20 })
      expect(log.warn.mock.calls[0]![1]).toMatch(/the database unreachable/)
      await sleep(300)
      expect(log.warn).toHaveBeenCalledTimes(1)

      await rateLimitHitsMigration.up(db.database.db as never)
      await vi.waitFor(() => expect(log.info).toHaveBeenCalledTimes(1), { timeout: 5_000, interval: 20 })
      expect(log.info.mock.calls[0]![0]).toMatch(/the database reachable again/)
      expect((limiter.take('other') as RateDecision).allowed).toBe(true)
    } finally {
      await store.close()
      await db.destroy()
    }
  })
})

describe('rate limits in Redis: keys expire', () => {
  let t: TestApp
  let redis: Redis
  const prefix = redisKeyPrefix()
  beforeAll(async () => {
    t = await startTestApp({ rateLimitPerMinute: 2, paymentWorkerIntervalMilliseconds: false, redisUrl: REDIS_URL, rateLimits: { windowMs: 1_000, redisKeyPrefix: prefix } })
    redis = new Redis(REDIS_URL)
  })
  afterAll(async () => {
    redis.disconnect()
    await t.close()
  })

  it('keeps a key no longer than a window after its last request, and admits again once it has passed', async () => {
    const key = await t.newKey('admin')
    for (let i = 0; i < 2; i += 1) expect((await get(t.app, basicAuth(key))).statusCode).toBe(200)
    expectError(await get(t.app, basicAuth(key)), 429, 'rate_limited')
    // The key's one sorted set: this test's prefix is its own.
    const [redisKey, ...others] = await redis.keys(`${prefix}requests:*`)
    expect(others).toEqual([])
    expect(await redis.zcard(redisKey!)).toBe(2)
    const ttl = await redis.pttl(redisKey!)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(1_000)
    await sleep(1_200)
    expect(await redis.exists(redisKey!)).toBe(0)
    expect((await get(t.app, basicAuth(key))).statusCode).toBe(200)
  })
})

describe('rate limits in Redis: Redis unreachable', () => {
  it('starts without it and limits each process on its own', async () => {
    const started = Date.now()
    // Port 1: nothing listens there, the connection is refused.
    const t = await startTestApp({ rateLimitPerMinute: 2, paymentWorkerIntervalMilliseconds: false, redisUrl: 'redis://127.0.0.1:1' })
    try {
      expect(Date.now() - started).toBeLessThan(10_000)
      const key = await t.newKey('admin')
      expect((await get(t.app, basicAuth(key))).statusCode).toBe(200)
      expect((await get(t.app, basicAuth(key))).statusCode).toBe(200)
      expectError(await get(t.app, basicAuth(key)), 429, 'rate_limited')
    } finally {
      await t.close()
    }
  })

  describe('lost while serving, then back', () => {
    let relay: Awaited<ReturnType<typeof redisRelay>>
    let t: TestApp
    let other: ApiApp
    let key: Credentials
    const lines: Array<Record<string, unknown>> = []
    beforeAll(async () => {
      relay = await redisRelay()
      const rateLimits = { redisKeyPrefix: redisKeyPrefix() }
      t = await startTestApp({ rateLimitPerMinute: 3, failedAuthenticationsPerMinute: 2, paymentWorkerIntervalMilliseconds: false, redisUrl: relay.url, rateLimits, logLevel: 'info' })
      other = await instanceOn(t.db.database, { rateLimitPerMinute: 3, failedAuthenticationsPerMinute: 2, redisUrl: relay.url }, rateLimits)
      vi.spyOn(logDestination(t.app.log), 'write').mockImplementation((line) => lines.push(JSON.parse(line)) > 0)
      key = await t.newKey('admin')
    })
    afterAll(async () => {
      await other.close()
      await t.close()
      await relay.cut()
    })

    const storeLines = () => lines.filter((line) => String(line.msg).startsWith('rate limits:'))

    it('falls back to per-process limits — neither unlimited nor refusing everyone — and warns once, not per request', async () => {
      // One request shared through Redis first: the other instance's count.
      expect((await get(other, basicAuth(key))).statusCode).toBe(200)
      await relay.cut()
      const statuses = []
      for (let i = 0; i < 5; i += 1) statuses.push((await get(t.app, basicAuth(key))).statusCode)
      // This process alone: its own 3, whatever the other instance did.
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      for (let attempt = 0; attempt < 2; attempt += 1) {
        expect((await get(t.app, basicAuth({ ...key, secret: 'guess' }), '10.30.0.1')).statusCode).toBe(401)
      }
      expectError(await get(t.app, basicAuth(t.owner), '10.30.0.1'), 429, 'too_many_failed_authentications')
      const warnings = storeLines().filter((line) => line.level === 40)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]!.msg).toMatch(/Redis unreachable/)
    })

    it('shares the limits through Redis again once it is back, and says so once', async () => {
      await relay.restore()
      await vi.waitFor(() => expect(storeLines().filter((line) => line.level === 30 && /reachable again/.test(String(line.msg)))).toHaveLength(1), {
        timeout: 10_000,
        interval: 50,
      })
      const fresh = await t.newKey('admin')
      for (const app of [t.app, other, t.app]) expect((await get(app, basicAuth(fresh))).statusCode).toBe(200)
      expectError(await get(other, basicAuth(fresh)), 429, 'rate_limited')
    })
  })

  describe('not answering while connected (hung), then answering again', () => {
    let relay: Awaited<ReturnType<typeof redisRelay>>
    let t: TestApp
    const lines: Array<Record<string, unknown>> = []
    beforeAll(async () => {
      relay = await redisRelay()
      t = await startTestApp({ rateLimitPerMinute: 2, paymentWorkerIntervalMilliseconds: false, redisUrl: relay.url, rateLimits: { redisKeyPrefix: redisKeyPrefix() }, logLevel: 'info' })
      vi.spyOn(logDestination(t.app.log), 'write').mockImplementation((line) => lines.push(JSON.parse(line)) > 0)
    })
    afterAll(async () => {
      await t.close()
      await relay.cut()
    })

    const storeLines = () => lines.filter((line) => String(line.msg).startsWith('rate limits:'))

    it('answers each request after the command timeout with the per-process limit, warns once, and says once when Redis answers again', async () => {
      const key = await t.newKey('admin')
      relay.stall()
      const started = Date.now()
      const statuses = []
      for (let i = 0; i < 3; i += 1) statuses.push((await get(t.app, basicAuth(key))).statusCode)
      expect(statuses).toEqual([200, 200, 429])
      // Each waited for the 500 ms timeout, not for ever (a generous bound for a busy machine).
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400)
      expect(Date.now() - started).toBeLessThan(10_000)
      expect(storeLines().filter((line) => line.level === 40)).toHaveLength(1)

      relay.resume()
      const fresh = await t.newKey('admin')
      expect((await get(t.app, basicAuth(fresh))).statusCode).toBe(200)
      expect(storeLines().filter((line) => line.level === 30 && /reachable again/.test(String(line.msg)))).toHaveLength(1)
      expect(storeLines().filter((line) => line.level === 40)).toHaveLength(1)
    })
  })
})
