import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { createAccessKey } from '../../src/iam/index.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { startKassaProcess, stopped, type KassaProcess } from '../support/kassa-processes.js'
import { basicAuth } from '../support/test-app.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'
import { COUNTERPARTIES } from '../conventions/expectations.js'
import { REDIS_URL, redisKeyPrefix } from '../conventions/shared-rate-limits.js'

/**
 * Issue 14, with real server processes configured from the environment as `kassa serve` is: two of them on one
 * database share the request limit and the failed-authentication limit — through the database with the production
 * sync interval (250 ms) when REDIS_URL is empty, through Redis when it is set. In the slow suite for the four
 * process starts; the same checks with two app instances in one process run in npm test
 * (test/conventions/rate-limits-across-processes.test.ts).
 */
const LIMIT = 4
const FAILURES = 3

const STORES = [
  // Two sync intervals (one process adds, the other reads back) and a margin for a busy machine.
  { name: 'database', env: () => ({ REDIS_URL: '' }), settle: () => sleep(1_000) },
  { name: 'redis', env: () => ({ REDIS_URL, TEST_REDIS_KEY_PREFIX: redisKeyPrefix() }), settle: async () => undefined },
]

describe.each(STORES)('rate limits across two server processes: $name', (store) => {
  let db: TestDatabase
  let processes: KassaProcess[] = []
  let owner: Credentials
  beforeAll(async () => {
    db = await createTestDatabase()
    owner = await createSandboxOrganization(db.database, 'Two processes')
    const env = { ...store.env(), KASSA_RATE_LIMIT_PER_MINUTE: String(LIMIT), KASSA_FAILED_AUTH_PER_MINUTE: String(FAILURES) }
    const script = new URL('./rate-limited-process.ts', import.meta.url)
    processes = await Promise.all([startKassaProcess(db.url, env, script), startKassaProcess(db.url, env, script)])
  }, 60_000)
  afterAll(async () => {
    await Promise.all(processes.map((kassa) => stopped(kassa.child, 'SIGTERM')))
    await db.destroy()
  })

  function get(kassa: KassaProcess, credentials: Pick<Credentials, 'accessKey' | 'secret'>): Promise<Response> {
    return fetch(`${kassa.url}${COUNTERPARTIES}`, { headers: { authorization: basicAuth(credentials) } })
  }

  it('counts requests sent to either process against one limit', async () => {
    const key = await createAccessKey(db.database, owner.organizationId, 'admin')
    const seen: Array<[number, string | null]> = []
    for (let i = 0; i < 2 * LIMIT; i += 1) {
      const response = await get(processes[i % 2]!, key)
      seen.push([response.status, response.headers.get('ratelimit-remaining')])
      await store.settle()
    }
    expect(seen).toEqual([[200, '3'], [200, '2'], [200, '1'], [200, '0'], [429, '0'], [429, '0'], [429, '0'], [429, '0']])
  })

  it('refuses a key on both processes once its wrong secrets, sent to either, reach the limit', async () => {
    const attacked = await createAccessKey(db.database, owner.organizationId, 'admin')
    for (let attempt = 0; attempt < FAILURES; attempt += 1) {
      expect((await get(processes[attempt % 2]!, { ...attacked, secret: 'guess' })).status).toBe(401)
      await store.settle()
    }
    for (const kassa of processes) {
      const refused = await get(kassa, attacked)
      expect(refused.status).toBe(429)
      expect(((await refused.json()) as { code: string }).code).toBe('too_many_failed_authentications')
    }
  })
})
