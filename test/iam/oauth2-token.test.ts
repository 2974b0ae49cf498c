import { createHash } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessTokenFor, bearer, requestToken, TOKEN_PATH, TOKEN_PATH_V2 } from '../support/oauth2.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { expectStatus } from './iam-helpers.js'
import { PASSWORD, person, SESSION } from './session-helpers.js'

/** Issue 13: POST /iam/v2beta/oauth2/token, the client credentials grant (RFC 6749 §4.4), and its errors (§5.2). */

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const GRANT = { grant_type: 'client_credentials' }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface OAuth2ErrorJson {
  status: number
  code: string
  message: string
  requestId: string
  error: string
  error_description: string
  details?: Array<{ code: string; field: string; error: string }>
}

/** The error envelope with RFC 6749 §5.2's fields beside it: `error` is `code`, `error_description` is `message`. */
function expectOAuth2Error(response: LightMyRequestResponse, status: number, error: string): OAuth2ErrorJson {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/json/)
  const body = response.json<OAuth2ErrorJson>()
  expect(body).toMatchObject({ status, code: error, error, requestId: response.headers['request-id'] })
  expect(body.requestId).toMatch(UUID)
  expect(body.error_description).toBe(body.message)
  // RFC 6749 §5.2: printable ASCII without `"` and `\`.
  expect(body.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/)
  expect(Object.keys(body).every((key) => ['status', 'code', 'message', 'requestId', 'details', 'error', 'error_description'].includes(key))).toBe(true)
  return body
}

function expectToken(response: LightMyRequestResponse, lifetime = 300): string {
  expectStatus(response, 200)
  const body = response.json<{ access_token: string; token_type: string; expires_in: number }>()
  expect(body).toEqual({ access_token: expect.stringMatching(/^kassa_at_[A-Za-z0-9_-]{43}$/), token_type: 'Bearer', expires_in: lifetime })
  // RFC 6749 §5.1: never cached.
  expect(response.headers['cache-control']).toBe('no-store')
  expect(response.headers.pragma).toBe('no-cache')
  return body.access_token
}

describe('issuing a token', () => {
  it('takes the access key and secret by HTTP Basic (client_secret_basic), and the token works', async () => {
    const token = expectToken(await requestToken(t, { form: GRANT, headers: { authorization: basicAuth(t.owner) } }))
    expectStatus(await t.request({ method: 'GET', url: '/financial-data/v2/accounts', headers: bearer(token), as: null }), 200)
  })

  it('takes them as the form fields client_id and client_secret (client_secret_post)', async () => {
    const token = expectToken(await requestToken(t, { form: { ...GRANT, client_id: t.owner.accessKey, client_secret: t.owner.secret } }))
    expectStatus(await t.request({ method: 'GET', url: '/financial-data/v2/accounts', headers: bearer(token), as: null }), 200)
  })

  it('accepts a client_id beside Basic credentials when it names the same key', async () => {
    expectToken(await requestToken(t, { form: { ...GRANT, client_id: t.owner.accessKey }, headers: { authorization: basicAuth(t.owner) } }))
  })

  it('answers alike at /iam/v2/oauth2/token, the current name of the reference', async () => {
    const token = expectToken(await requestToken(t, { url: TOKEN_PATH_V2, form: GRANT, headers: { authorization: basicAuth(t.owner) } }))
    expectStatus(await t.request({ method: 'GET', url: '/payments/v2/counterparties', headers: bearer(token), as: null }), 200)
  })

  it('gives a new token each time, and keeps only its SHA-256 digest', async () => {
    const first = await accessTokenFor(t, t.owner)
    const second = await accessTokenFor(t, t.owner)
    expect(first).not.toBe(second)
    const rows = await t.db.database.db.selectFrom('oauth2_access_tokens').selectAll().execute()
    const digest = createHash('sha256').update(first).digest('hex')
    expect(rows.map((row) => row.token_digest)).toContain(digest)
    expect(JSON.stringify(rows)).not.toContain(first.slice('kassa_at_'.length))
    const row = rows.find((candidate) => candidate.token_digest === digest)!
    expect(Date.parse(row.expires_at) - Date.parse(row.created)).toBe(300_000)
  })

  it('reads the form as RFC 6749 says: a charset parameter, empty parameters as absent, unknown ones ignored', async () => {
    expectToken(await requestToken(t, { form: GRANT, headers: { authorization: basicAuth(t.owner), 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } }))
    expectToken(await requestToken(t, { form: 'grant_type=client_credentials&scope=&client_id=', headers: { authorization: basicAuth(t.owner) } }))
    expectToken(await requestToken(t, { form: { ...GRANT, audience: 'kassa', resource: 'https://example.com' }, headers: { authorization: basicAuth(t.owner) } }))
  })

  it('decodes form-encoded Basic credentials (RFC 6749 §2.3.1)', async () => {
    const encoded = { accessKey: encodeURIComponent(t.owner.accessKey), secret: encodeURIComponent(t.owner.secret).replace(/-/g, '%2D') }
    expectToken(await requestToken(t, { form: GRANT, headers: { authorization: basicAuth(encoded) } }))
  })
})

describe('refusals, in the error envelope with RFC 6749 §5.2 fields', () => {
  it('answers a wrong secret with 401 invalid_client and a Basic challenge, by Basic and by the form alike', async () => {
    const byBasic = await requestToken(t, { form: GRANT, headers: { authorization: basicAuth({ ...t.owner, secret: 'wrong' }) } })
    const body = expectOAuth2Error(byBasic, 401, 'invalid_client')
    expect(byBasic.headers['www-authenticate']).toBe('Basic realm="kassa", charset="UTF-8"')
    expect(body.message).toBe('Wrong access key or secret')
    const byForm = await requestToken(t, { form: { ...GRANT, client_id: t.owner.accessKey, client_secret: `${t.owner.secret}x` } })
    expect(expectOAuth2Error(byForm, 401, 'invalid_client').message).toBe(body.message)
  })

  it('answers an unknown access key exactly as a wrong secret', async () => {
    const unknown = await requestToken(t, { form: GRANT, headers: { authorization: basicAuth({ accessKey: 'KANOSUCHKEY', secret: t.owner.secret }) } })
    expect(expectOAuth2Error(unknown, 401, 'invalid_client').message).toBe('Wrong access key or secret')
  })

  it.each([
    ['no credentials at all', {}, {}],
    ['a client_id without its secret', { client_id: 'KAX' }, {}],
    ['another scheme', {}, { authorization: 'Bearer kassa_at_x' }],
    ['Basic credentials without a colon', {}, { authorization: `Basic ${Buffer.from('KAX').toString('base64')}` }],
  ])('answers %s with 401 invalid_client', async (_, form, headers) => {
    const response = await requestToken(t, { form: { ...GRANT, ...form }, headers })
    expectOAuth2Error(response, 401, 'invalid_client')
    expect(response.headers['www-authenticate']).toBe('Basic realm="kassa", charset="UTF-8"')
  })

  it('answers another grant type with 400 unsupported_grant_type, right credentials or not', async () => {
    for (const grant of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      const response = await requestToken(t, { form: { grant_type: grant }, headers: { authorization: basicAuth(t.owner) } })
      expect(expectOAuth2Error(response, 400, 'unsupported_grant_type').message).toContain('client_credentials')
    }
  })

  it('answers a missing grant_type with 400 invalid_request naming it', async () => {
    const body = expectOAuth2Error(await requestToken(t, { form: {}, headers: { authorization: basicAuth(t.owner) } }), 400, 'invalid_request')
    expect(body.details).toEqual([expect.objectContaining({ field: 'grant_type', code: 'required' })])
  })

  it('answers a repeated parameter with 400 invalid_request (RFC 6749 §3.2)', async () => {
    const body = expectOAuth2Error(
      await requestToken(t, { form: 'grant_type=client_credentials&grant_type=client_credentials', headers: { authorization: basicAuth(t.owner) } }),
      400,
      'invalid_request',
    )
    expect(body.details).toEqual([{ code: 'repeated', field: 'grant_type', error: 'is given more than once' }])
  })

  it('answers credentials given both ways with 400 invalid_request (RFC 6749 §2.3)', async () => {
    const both = await requestToken(t, { form: { ...GRANT, client_id: t.owner.accessKey, client_secret: t.owner.secret }, headers: { authorization: basicAuth(t.owner) } })
    expectOAuth2Error(both, 400, 'invalid_request')
    const contradicting = await requestToken(t, { form: { ...GRANT, client_id: 'KAOTHER' }, headers: { authorization: basicAuth(t.owner) } })
    expectOAuth2Error(contradicting, 400, 'invalid_request')
  })

  it('answers a scope with 400 invalid_scope: a token acts with its key’s role', async () => {
    expectOAuth2Error(await requestToken(t, { form: { ...GRANT, scope: 'accounts:read' }, headers: { authorization: basicAuth(t.owner) } }), 400, 'invalid_scope')
  })

  it('answers a body that is not form-encoded, or none, with 400 invalid_request (not 415)', async () => {
    const json = await t.app.inject({ method: 'POST', url: TOKEN_PATH, headers: { authorization: basicAuth(t.owner), 'content-type': 'application/json' }, payload: JSON.stringify(GRANT) })
    expect(expectOAuth2Error(json, 400, 'invalid_request').message).toContain('application/x-www-form-urlencoded')
    const none = await t.app.inject({ method: 'POST', url: TOKEN_PATH, headers: { authorization: basicAuth(t.owner) } })
    expectOAuth2Error(none, 400, 'invalid_request')
  })

  it('answers a body over 8 KiB, or a parameter over 256 characters, with 400 invalid_request', async () => {
    expectOAuth2Error(await requestToken(t, { form: { ...GRANT, padding: 'x'.repeat(9_000) }, headers: { authorization: basicAuth(t.owner) } }), 400, 'invalid_request')
    const long = await requestToken(t, { form: { ...GRANT, client_id: 'K'.repeat(300), client_secret: 'x' } })
    expect(expectOAuth2Error(long, 400, 'invalid_request').details).toEqual([expect.objectContaining({ field: 'client_id' })])
  })

  it('never shows the secret it was given', async () => {
    const secret = `${t.owner.secret}-wrong`
    const responses = [
      await requestToken(t, { form: { ...GRANT, client_id: t.owner.accessKey, client_secret: secret } }),
      await requestToken(t, { form: { ...GRANT, client_id: t.owner.accessKey, client_secret: secret }, headers: { authorization: basicAuth(t.owner) } }),
      await requestToken(t, { form: `grant_type=client_credentials&client_secret=${secret}&client_secret=${secret}&client_id=x` }),
    ]
    for (const response of responses) expect(response.body).not.toContain(t.owner.secret)
  })
})

describe('failed client authentication counts toward the sign-in lockout of the address', () => {
  it('locks the address after 20 failures (429 with Retry-After, the right secret too), and sign-in from it as well', async () => {
    const remoteAddress = '203.0.113.13'
    const wrong = { form: GRANT, headers: { authorization: basicAuth({ ...t.owner, secret: 'wrong' }) }, remoteAddress }
    for (let attempt = 1; attempt <= 20; attempt += 1) expectOAuth2Error(await requestToken(t, wrong), 401, 'invalid_client')
    const locked = await requestToken(t, { form: GRANT, headers: { authorization: basicAuth(t.owner) }, remoteAddress })
    expect(locked.statusCode, locked.body).toBe(429)
    expect(locked.json()).toMatchObject({ status: 429, code: 'rate_limited' })
    expect(locked.json().error).toBeUndefined()
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0)

    const ada = await person(t, 'read-only')
    const signIn = await t.app.inject({ method: 'POST', url: SESSION, remoteAddress, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: ada.email, password: PASSWORD }) })
    expect(signIn.statusCode, signIn.body).toBe(429)
    // Another address is not concerned.
    expectToken(await requestToken(t, { form: GRANT, headers: { authorization: basicAuth(t.owner) }, remoteAddress: '203.0.113.14' }))
  })
})
