import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import { accessTokenFor, bearer, requestToken } from '../support/oauth2.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { USERS, createKey, expectError, expectStatus, member, roleId, type Member } from './iam-helpers.js'
import { asSession, person, SESSION, signIn } from './session-helpers.js'

/** Issue 13: a bearer token acts as its access key on the API, until it expires or the key stops. */

const COUNTERPARTIES = '/payments/v2/counterparties'
const INVALID_TOKEN = /^Bearer realm="kassa", error="invalid_token"/

let t: TestApp
let adminRoleId: string
beforeAll(async () => {
  // The default grant cache (5 s): revocations must still take effect at once in this process.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  adminRoleId = await roleId(t, 'admin')
})
afterAll(() => t.close())

function get(url: string, token: string) {
  return t.request({ method: 'GET', url, headers: bearer(token), as: null })
}

function expectInvalidToken(response: Awaited<ReturnType<typeof get>>): void {
  expectError(response, 401, 'unauthorized')
  expect(response.headers['www-authenticate']).toMatch(INVALID_TOKEN)
}

describe('a bearer token on the API', () => {
  let integration: Member
  let token: string
  beforeAll(async () => {
    integration = await member(t, adminRoleId, 'Bearer integration')
    token = await accessTokenFor(t, integration)
  })

  it('lists, as the key would', async () => {
    const byToken = await get('/financial-data/v2/accounts', token)
    expectStatus(byToken, 200)
    const byKey = await t.request({ method: 'GET', url: '/financial-data/v2/accounts', as: integration })
    expect(byToken.json()).toEqual(byKey.json())
  })

  it('creates with an Idempotency-Key: a retry by token, or by the key itself, replays the first answer', async () => {
    const request = { method: 'POST' as const, url: COUNTERPARTIES, body: counterpartyBody({ externalId: 'bearer-idem' }), as: null }
    const headers = { ...bearer(token), 'idempotency-key': 'bearer-create-1' }
    const first = await t.request({ ...request, headers })
    expectStatus(first, 201)
    const retry = await t.request({ ...request, headers })
    expectStatus(retry, 201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.json()).toEqual(first.json())
    const byKey = await t.request({ ...request, headers: { authorization: basicAuth(integration), 'idempotency-key': 'bearer-create-1' } })
    expect(byKey.headers['idempotent-replayed']).toBe('true')
    expect(byKey.json().id).toBe(first.json().id)
    const rows = await t.db.database.db.selectFrom('counterparties').select('id').where('external_id', '=', 'bearer-idem').execute()
    expect(rows).toHaveLength(1)
  })

  it('is no session: GET /iam/v2/session answers 404 as it does to the key', async () => {
    expectError(await get(SESSION, token), 404, 'not_found')
  })
})

describe('a token ends', () => {
  it('when it expires: 401 invalid_token, and expired tokens are deleted as new ones are issued', async () => {
    const short = await startTestApp({ paymentWorkerIntervalMilliseconds: false, accessTokenLifetimeSeconds: 1 })
    try {
      const response = await requestToken(short, { form: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth(short.owner) } })
      expect(response.json()).toMatchObject({ token_type: 'Bearer', expires_in: 1 })
      const expiring = response.json<{ access_token: string }>().access_token
      const use = () => short.request({ method: 'GET', url: COUNTERPARTIES, headers: bearer(expiring), as: null })
      expectStatus(await use(), 200)
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      const expired = await use()
      expectInvalidToken(expired)
      expect(expired.json().message).toContain('expired')
      // The key itself still works, and a new token for it purges the expired one.
      expectStatus(await short.request({ method: 'GET', url: COUNTERPARTIES }), 200)
      await accessTokenFor(short, short.owner)
      expect(await short.db.database.db.selectFrom('oauth2_access_tokens').select('expires_at').execute()).toHaveLength(1)
      expectInvalidToken(await use())
    } finally {
      await short.close()
    }
  })

  it('when its key is revoked: at once in this process; the key gets no new token either', async () => {
    const revoked = await member(t, adminRoleId, 'Revoked integration')
    const token = await accessTokenFor(t, revoked)
    expectStatus(await get(COUNTERPARTIES, token), 200)
    const [key] = (await t.request({ method: 'GET', url: `${USERS}/${revoked.userId}/access-keys` })).json<{ items: Array<{ id: string }> }>().items
    // Another key of the user, so the user and its other credentials go on.
    const other = await createKey(t, revoked.userId)
    expectStatus(await t.request({ method: 'DELETE', url: `${USERS}/${revoked.userId}/access-keys/${key!.id}` }), 204)
    const refused = await get(COUNTERPARTIES, token)
    expectInvalidToken(refused)
    expect(refused.json().message).toContain('revoked')
    const again = await requestToken(t, { form: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth(revoked) } })
    expect(again.statusCode).toBe(401)
    expect(again.json().error).toBe('invalid_client')
    expectStatus(await get(COUNTERPARTIES, await accessTokenFor(t, { accessKey: other.accessKey, secret: other.secret! })), 200)
  })

  it('when its user is deactivated, and works again once the user is reactivated (it is the key that acts)', async () => {
    const user = await member(t, adminRoleId, 'Deactivated integration')
    const token = await accessTokenFor(t, user)
    expectStatus(await get(COUNTERPARTIES, token), 200)
    expectStatus(await t.request({ method: 'POST', url: `${USERS}/${user.userId}:deactivate` }), 200)
    expectInvalidToken(await get(COUNTERPARTIES, token))
    expectStatus(await t.request({ method: 'POST', url: `${USERS}/${user.userId}:reactivate` }), 200)
    expectStatus(await get(COUNTERPARTIES, token), 200)
  })
})

describe('the session cookie keeps working beside bearer tokens', () => {
  it('authenticates a signed-in person, and a bearer token beside the cookie decides alone', async () => {
    const ada = await person(t, 'read-only')
    const session = await signIn(t, ada)
    expectStatus(await asSession(t, session, { method: 'GET', url: SESSION }), 200)
    const token = await accessTokenFor(t, t.owner)
    // The header decides: the owner's token acts, so the session route answers as it does to a key.
    expectError(await asSession(t, session, { method: 'GET', url: SESSION, headers: bearer(token) }), 404, 'not_found')
  })
})
