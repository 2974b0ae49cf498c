import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { RATE_LIMIT_STORES } from './shared-rate-limits.js'

/**
 * Issue 14: failed authentications are limited per client address and per access key, far below the request
 * rate; past the limit the address or the key is refused (429, Retry-After) before credentials are checked.
 */
const LIMIT = 5

// The same semantics whichever store keeps the counts (http/rate-limits/); two instances sharing them: rate-limits-across-processes.test.ts.
describe.each(RATE_LIMIT_STORES)('failed authentications, kept in $name', (store) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp({ failedAuthenticationsPerMinute: LIMIT, paymentWorkerIntervalMilliseconds: false, ...store.options() })
  })
  afterAll(() => t.close())

  function get(authorization: string, remoteAddress: string) {
    return t.app.inject({ method: 'GET', url: '/financial-data/v2/accounts', headers: { authorization }, remoteAddress })
  }

  it('refuses a key once its secret was wrong too often, whatever the address, and its right secret too; other keys go on', async () => {
    const attacked = await t.newKey('admin')
    const wrong = basicAuth({ accessKey: attacked.accessKey, secret: 'guess' })
    for (let attempt = 0; attempt < LIMIT; attempt += 1) {
      expect((await get(wrong, `10.1.0.${attempt}`)).statusCode).toBe(401)
    }
    const refused = await get(basicAuth(attacked), '10.1.1.1')
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ status: 429, code: 'too_many_failed_authentications', requestId: refused.headers['request-id'] })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect((await get(basicAuth(t.owner), '10.1.1.1')).statusCode).toBe(200)
  })

  it('refuses an address that failed too often, whichever keys it tried, and only that address', async () => {
    for (let attempt = 0; attempt < LIMIT; attempt += 1) {
      const response = await get(basicAuth({ accessKey: `KAGUESS${attempt}`, secret: 'guess' }), '10.2.0.1')
      expect(response.statusCode).toBe(401)
    }
    expect((await get(basicAuth(t.owner), '10.2.0.1')).json()).toMatchObject({ status: 429, code: 'too_many_failed_authentications' })
    expect((await get('Bearer kassa_at_unknown', '10.2.0.1')).statusCode).toBe(429)
    expect((await get(basicAuth(t.owner), '10.2.0.2')).statusCode).toBe(200)
  })

  it('counts refused bearer tokens and malformed credentials against the address', async () => {
    for (let attempt = 0; attempt < LIMIT; attempt += 1) {
      const authorization = attempt % 2 === 0 ? 'Bearer kassa_at_unknown' : 'Basic not-base64-pairs'
      expect((await get(authorization, '10.3.0.1')).statusCode).toBe(401)
    }
    expect((await get(basicAuth(t.owner), '10.3.0.1')).statusCode).toBe(429)
  })

  it('does not count successful requests', async () => {
    for (let attempt = 0; attempt < LIMIT * 3; attempt += 1) expect((await get(basicAuth(t.owner), '10.4.0.1')).statusCode).toBe(200)
  })
})
