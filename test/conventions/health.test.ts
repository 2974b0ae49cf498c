import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError, UUID } from './expectations.js'

describe('health probes answer without authentication', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp()
  })
  afterAll(() => t.close())

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
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp()
    await t.db.database.close()
  })
  afterAll(async () => {
    await t.app.close()
    await t.db.destroy().catch(() => undefined)
  })

  it('answers 503 unavailable while /healthz stays 200', async () => {
    expectError(await t.request({ method: 'GET', url: '/readyz', as: null }), 503, 'unavailable')
    expect((await t.request({ method: 'GET', url: '/healthz', as: null })).statusCode).toBe(200)
  })
})
