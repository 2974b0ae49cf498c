import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { expectError, expectStatus } from './iam-helpers.js'
import { asSession, HOST, OWN_ORIGIN, person, SESSION, signIn, type SignedIn } from './session-helpers.js'

const COUNTERPARTIES = '/payments/v2/counterparties'

let t: TestApp
let admin: SignedIn
let adminUserId: string
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  const ada = await person(t, 'admin')
  adminUserId = ada.userId
  admin = await signIn(t, ada)
})
afterAll(() => t.close())

async function counterpartyCount(): Promise<number> {
  const rows = await t.db.database.db.selectFrom('counterparties').select('id').where('organization_id', '=', t.owner.organizationId).execute()
  return rows.length
}

async function originatorOf(entityId: string): Promise<string | undefined> {
  const row = await t.db.database.db.selectFrom('events').select('originator').where('entity_id', '=', entityId).where('name', '=', 'CREATED').executeTakeFirst()
  return row?.originator
}

describe('a session acts through the API guard', () => {
  it('reads with the cookie alone, and is rate limited like a key', async () => {
    const accounts = await asSession(t, admin, { method: 'GET', url: '/financial-data/v2/accounts' })
    expectStatus(accounts, 200)
    expect(accounts.json<{ items: unknown[] }>().items.length).toBeGreaterThan(0)
    expect(accounts.headers['ratelimit-limit']).toBe('100000')
  })

  it('writes with the CSRF token and a same-origin Origin, as its user', async () => {
    const created = await asSession(t, admin, { method: 'POST', url: COUNTERPARTIES, body: counterpartyBody() })
    expectStatus(created, 201)
    expect(await originatorOf(created.json<{ id: string }>().id)).toBe(adminUserId)
  })

  it.each([
    ['without the CSRF token', { csrf: false }],
    ['with a CSRF token of another session', { csrf: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['with the token but a foreign Origin', { origin: 'https://evil.example' }],
    ['with the token but an http Origin of another port', { origin: `http://${HOST}:8081` }],
    ['with the token but no Origin', { origin: null }],
  ] as const)('refuses a write %s (403) and writes nothing', async (_, change) => {
    const before = await counterpartyCount()
    const refused = await asSession(t, admin, { method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), ...change })
    expectError(refused, 403, 'forbidden')
    expect(await counterpartyCount()).toBe(before)
  })

  it('checks every state-changing method, not only POST', async () => {
    const created = (await asSession(t, admin, { method: 'POST', url: COUNTERPARTIES, body: counterpartyBody() })).json<{ id: string; etag: string }>()
    const url = `${COUNTERPARTIES}/${created.id}`
    const headers = { 'if-match': created.etag }
    const patch = [{ op: 'replace', path: '/alias', value: 'changed' }]
    expectError(await asSession(t, admin, { method: 'PATCH', url, body: patch, headers, csrf: false }), 403, 'forbidden')
    expectError(await asSession(t, admin, { method: 'DELETE', url, headers, origin: 'https://evil.example' }), 403, 'forbidden')
    expectStatus(await asSession(t, admin, { method: 'PATCH', url, body: patch, headers }), 200)
  })

  it('ignores the cookie where Basic credentials are given: Basic alone decides who acts', async () => {
    const owner = { authorization: basicAuth(t.owner) }
    // No CSRF token and no Origin: with Basic credentials, the cookie is not what authenticates.
    const created = await asSession(t, admin, { method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), headers: owner, csrf: false, origin: null })
    expectStatus(created, 201)
    expect(await originatorOf(created.json<{ id: string }>().id)).toBe(t.owner.userId)
    expectError(await asSession(t, admin, { method: 'GET', url: SESSION, headers: owner }), 404, 'not_found')
    // Wrong Basic credentials are not rescued by a good cookie.
    expectError(await asSession(t, admin, { method: 'GET', url: '/financial-data/v2/accounts', headers: { authorization: basicAuth({ accessKey: t.owner.accessKey, secret: 'wrong' }) } }), 401, 'unauthorized')
  })

  it("gives a read-only person's session the 403 their access key would get", async () => {
    const reader = await signIn(t, await person(t, 'read-only'))
    const key = await t.newKey('read-only')
    expectStatus(await asSession(t, reader, { method: 'GET', url: COUNTERPARTIES }), 200)
    const bySession = expectError(await asSession(t, reader, { method: 'POST', url: COUNTERPARTIES, body: counterpartyBody() }), 403, 'forbidden')
    const byKey = expectError(await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: key }), 403, 'forbidden')
    expect(bySession.message).toBe(byKey.message)
  })

  it('answers an unknown or malformed cookie with 401, and challenges browsers without their password dialog', async () => {
    const forged = { ...admin, token: 'A'.repeat(43) }
    const unknown = await asSession(t, forged, { method: 'GET', url: '/financial-data/v2/accounts' })
    expectError(unknown, 401, 'unauthorized')
    expect(unknown.headers['www-authenticate']).toBe('Session realm="kassa"')
    const malformed = await t.app.inject({ method: 'GET', url: '/financial-data/v2/accounts', headers: { cookie: 'kassa_session=short' } })
    expectError(malformed, 401, 'unauthorized')
    expect(malformed.headers['www-authenticate']).toBe('Basic realm="kassa", charset="UTF-8", Bearer realm="kassa"')
    const page = await t.app.inject({ method: 'GET', url: SESSION, headers: { 'sec-fetch-site': 'same-origin', origin: OWN_ORIGIN } })
    expectError(page, 401, 'unauthorized')
    expect(page.headers['www-authenticate']).toBe('Session realm="kassa"')
  })
})
