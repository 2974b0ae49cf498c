import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/database.js'
import type { ApiApp } from '../../src/http/api-app.js'
import { RETRY_AFTER_SECONDS } from '../../src/http/errors.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError, UUID, serverOn } from './expectations.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

describe('health probes answer without authentication', () => {
  for (const url of ['/healthz', '/readyz']) {
    it(`GET ${url} → 200 {status: ok} with request-id and no challenge`, async () => {
      const response = await t.request({ method: 'GET', url, as: null })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ status: 'ok' })
      expect(response.headers['request-id']).toMatch(UUID)
      expect(response.headers['www-authenticate']).toBeUndefined()
    })

    it(`GET ${url} ignores wrong credentials`, async () => {
      const response = await t.request({ method: 'GET', url, as: { ...t.owner, secret: 'wrong' } })
      expect(response.statusCode).toBe(200)
    })

    it(`HEAD ${url} → 200 without a body`, async () => {
      const response = await t.request({ method: 'HEAD', url, as: null })
      expect(response.statusCode).toBe(200)
      expect(response.body).toBe('')
    })
  }
})

describe('/readyz reports a database it cannot reach', () => {
  let unreachable: ApiApp
  beforeAll(async () => {
    // A server of its own on the test database, whose connections are then gone (Kysely only
    // really closes a connection it has opened, hence the first ping).
    const database = openDatabase(t.db.url)
    unreachable = await serverOn(database)
    await database.ping()
    await database.close()
  })
  afterAll(() => unreachable.close())

  it('answers 503 unavailable with Retry-After while /healthz stays 200', async () => {
    const response = await unreachable.inject({ method: 'GET', url: '/readyz' })
    expectError(response, 503, 'unavailable')
    expect(response.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS))
    expect((await unreachable.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
  })
})
