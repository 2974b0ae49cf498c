import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { person, sessionRow, signIn } from './session-helpers.js'

/**
 * KASSA_TRUST_PROXY (deployment behind a TLS-terminating proxy): only a proxy named there is believed about the
 * client's address (X-Forwarded-For) and protocol (X-Forwarded-Proto). The per-address failed-authentication limit,
 * the session's recorded address and the cookie's `Secure` then concern the client, not the proxy; anyone else's
 * forwarded headers are ignored.
 */
const PROXY = '127.0.0.1'
const FORWARDED_HTTPS = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' }

describe.each([
  { trusted: true, trustProxy: ['loopback'] },
  { trusted: false, trustProxy: [] },
])('KASSA_TRUST_PROXY $trustProxy', ({ trusted, trustProxy }) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp({ trustProxy, failedAuthenticationsPerMinute: 2, paymentWorkerIntervalMilliseconds: false })
  })
  afterAll(() => t.close())

  it(`${trusted ? 'takes' : 'ignores'} the client address and https from the proxy's forwarded headers`, async () => {
    const ada = await person(t, 'read-only')
    const session = await signIn(t, ada, { remoteAddress: PROXY, headers: FORWARDED_HTTPS })
    expect((await sessionRow(t, session.body.id))!.address).toBe(trusted ? '203.0.113.7' : PROXY)
    // A TLS proxy on the same machine: the browser is on https, so the cookie must be Secure.
    expect(session.setCookie.endsWith('; Secure')).toBe(trusted)
  })

  it('never believes forwarded headers from an address that is not a named proxy', async () => {
    const ada = await person(t, 'read-only')
    const session = await signIn(t, ada, { remoteAddress: '198.51.100.4', headers: { 'x-forwarded-for': '127.0.0.1' } })
    expect((await sessionRow(t, session.body.id))!.address).toBe('198.51.100.4')
  })

  it(`limits failed authentications per ${trusted ? 'client behind the proxy' : 'proxy address'}`, async () => {
    const get = (authorization: string, client: string) =>
      t.app.inject({ method: 'GET', url: '/financial-data/v2/accounts', remoteAddress: PROXY, headers: { authorization, 'x-forwarded-for': client } })
    const wrong = basicAuth({ accessKey: t.owner.accessKey, secret: 'not-the-secret' })
    // Unknown key ids, so only the per-address count is reached (the per-key one has keys of its own).
    for (const n of [1, 2]) expect((await get(basicAuth({ accessKey: `AK-unknown-${n}`, secret: 'x' }), '192.0.2.1')).statusCode).toBe(401)
    expect((await get(wrong, '192.0.2.1')).statusCode).toBe(429)
    // Another client behind the same proxy, with its right credentials.
    expect((await get(basicAuth(t.owner), '192.0.2.2')).statusCode).toBe(trusted ? 200 : 429)
  })
})
