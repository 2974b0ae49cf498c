import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { accessTokenFor, bearer } from '../support/oauth2.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'
import { COUNTERPARTIES, createCounterparty, countCounterparties, expectError } from './expectations.js'

let t: TestApp
let readOnly: Credentials
let admin: Credentials
beforeAll(async () => {
  t = await startTestApp()
  readOnly = await t.newKey('read-only')
  admin = await t.newKey('admin')
})
afterAll(() => t.close())

/** Both schemes are offered: Basic first (RFC 9110 §11.6.1), then Bearer (RFC 6750 §3). */
const CHALLENGE = /^Basic realm="kassa", charset="UTF-8", Bearer realm="kassa"$/
const INVALID_TOKEN = /^Bearer realm="kassa", error="invalid_token", error_description="[^"]+"$/

function basic(raw: string): string {
  return `Basic ${Buffer.from(raw).toString('base64')}`
}

describe('auth: HTTP Basic ACCESS_KEY:SECRET on every API request', () => {
  it('accepts the owner key and answers 200', async () => {
    const response = await t.request({ method: 'GET', url: COUNTERPARTIES })
    expect(response.statusCode).toBe(200)
    expect(response.headers['www-authenticate']).toBeUndefined()
  })

  const unauthorizedCases: [string, () => Record<string, string>][] = [
    ['no Authorization header', () => ({})],
    ['an empty Authorization header', () => ({ authorization: '' })],
    ['another scheme (Digest)', () => ({ authorization: `Digest username="${t.owner.accessKey}"` })],
    ['a scheme name alone', () => ({ authorization: 'Basic' })],
    ['Basic without credentials', () => ({ authorization: 'Basic ' })],
    ['Basic credentials without a colon', () => ({ authorization: basic(t.owner.accessKey) })],
    ['Basic credentials with an empty access key', () => ({ authorization: basic(`:${t.owner.secret}`) })],
    ['Basic with text that is not base64', () => ({ authorization: 'Basic %%%not-base64%%%' })],
    ['the right key with a wrong secret', () => ({ authorization: basicAuth({ ...t.owner, secret: 'wrong' }) })],
    ['the right key with an empty secret', () => ({ authorization: basic(`${t.owner.accessKey}:`) })],
    ['the right key with another key’s secret', () => ({ authorization: basicAuth({ ...t.owner, secret: admin.secret }) })],
    ['an unknown access key', () => ({ authorization: basicAuth({ accessKey: 'KANOSUCHKEY', secret: t.owner.secret }) })],
    ['an overlong access key', () => ({ authorization: basicAuth({ accessKey: 'K'.repeat(500), secret: 'x' }) })],
  ]
  for (const [name, headers] of unauthorizedCases) {
    it(`answers 401 with WWW-Authenticate for ${name}`, async () => {
      const response = await t.request({ method: 'GET', url: COUNTERPARTIES, headers: headers(), as: null })
      expectError(response, 401, 'unauthorized')
      expect(response.headers['www-authenticate']).toMatch(CHALLENGE)
    })
  }

  it('checks every request’s secret, also right after the same key was accepted', async () => {
    const { secret } = t.owner
    const lastFlipped = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`
    const presented = [secret, lastFlipped, secret.slice(0, -1), `${secret}A`, secret]
    const statuses = []
    for (const attempt of presented) {
      const headers = { authorization: basicAuth({ ...t.owner, secret: attempt }) }
      statuses.push((await t.request({ method: 'GET', url: COUNTERPARTIES, headers, as: null })).statusCode)
    }
    expect(statuses).toEqual([200, 401, 401, 401, 200])
  })

  it('answers 401 before anything else on writes, and creates nothing', async () => {
    const before = await countCounterparties(t)
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: null })
    expectError(response, 401, 'unauthorized')
    expect(response.headers['www-authenticate']).toMatch(CHALLENGE)
    expect(await countCounterparties(t)).toBe(before)
  })

  it('answers 401 even for a body that would not validate (auth comes first)', async () => {
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: { nonsense: true }, as: null })
    expectError(response, 401, 'unauthorized')
  })

  it('also guards /v1/idempotency-test', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/idempotency-test', as: null })
    expectError(response, 401, 'unauthorized')
    expect(response.headers['www-authenticate']).toMatch(CHALLENGE)
  })

  it('accepts the scheme name case-insensitively (RFC 9110 §11.1)', async () => {
    const headers = { authorization: basicAuth(t.owner).replace('Basic', 'basic') }
    const response = await t.request({ method: 'GET', url: COUNTERPARTIES, headers, as: null })
    expect(response.statusCode).toBe(200)
  })
})

describe('auth: a bearer token (OAuth2 client credentials) stands for its access key on every API request', () => {
  it('accepts a token on reads and writes, as the key that asked for it', async () => {
    const token = await accessTokenFor(t, admin)
    const list = await t.request({ method: 'GET', url: COUNTERPARTIES, headers: bearer(token), as: null })
    expect(list.statusCode).toBe(200)
    expect(list.headers['www-authenticate']).toBeUndefined()
    const created = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), headers: bearer(token), as: null })
    expect(created.statusCode).toBe(201)
    const event = await t.db.database.db.selectFrom('events').select('originator').where('entity_id', '=', created.json().id).executeTakeFirstOrThrow()
    expect(event.originator).toBe(admin.userId)
  })

  it("has the key's permissions: a read-only key's token reads, and gets the key's 403 on writes", async () => {
    const token = await accessTokenFor(t, readOnly)
    expect((await t.request({ method: 'GET', url: COUNTERPARTIES, headers: bearer(token), as: null })).statusCode).toBe(200)
    const before = await countCounterparties(t)
    const byToken = expectError(await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), headers: bearer(token), as: null }), 403, 'forbidden')
    const byKey = expectError(await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: readOnly }), 403, 'forbidden')
    expect(byToken.message).toBe(byKey.message)
    expect(await countCounterparties(t)).toBe(before)
  })

  it("shares the key's rate limit: Basic and Bearer requests count in one window", async () => {
    const key = await t.newKey('read-only')
    const token = await accessTokenFor(t, key)
    const remaining = async (headers: Record<string, string>) =>
      Number((await t.request({ method: 'GET', url: COUNTERPARTIES, headers, as: null })).headers['ratelimit-remaining'])
    const first = await remaining({ authorization: basicAuth(key) })
    expect(await remaining(bearer(token))).toBe(first - 1)
    expect(await remaining({ authorization: basicAuth(key) })).toBe(first - 2)
  })

  it("stays in the key's organization: another organization's resource is a 404", async () => {
    const other = await t.newOrganization('Bearer tenancy')
    const foreign = await createCounterparty(t, {}, other)
    const token = await accessTokenFor(t, t.owner)
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${foreign.id}`, headers: bearer(token), as: null }), 404, 'not_found')
    expect((await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${foreign.id}`, headers: bearer(await accessTokenFor(t, other)), as: null })).statusCode).toBe(200)
  })

  it('decides alone, as Basic does: a session cookie beside a bad token rescues nothing', async () => {
    const response = await t.request({ method: 'GET', url: COUNTERPARTIES, headers: { ...bearer('kassa_at_nope'), cookie: 'kassa_session=' + 'A'.repeat(43) }, as: null })
    expectError(response, 401, 'unauthorized')
    expect(response.headers['www-authenticate']).toMatch(INVALID_TOKEN)
  })

  /** An issued token with its last character changed: the right shape, but not what was issued. */
  async function alteredToken(): Promise<string> {
    const token = await accessTokenFor(t, t.owner)
    return `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
  }

  const invalidTokens: [string, () => string | Promise<string>][] = [
    ['the key’s secret as a token', () => `Bearer ${t.owner.secret}`],
    ['Basic credentials sent as a token', () => `Bearer ${basicAuth(t.owner).slice('Basic '.length)}`],
    ['a token of the right shape that was never issued', () => `Bearer kassa_at_${'A'.repeat(43)}`],
    ['an issued token with a character changed', async () => `Bearer ${await alteredToken()}`],
    ['an empty token', () => 'Bearer '],
  ]
  for (const [name, header] of invalidTokens) {
    it(`answers 401 with a Bearer invalid_token challenge for ${name}`, async () => {
      const response = await t.request({ method: 'GET', url: COUNTERPARTIES, headers: { authorization: await header() }, as: null })
      expectError(response, 401, 'unauthorized')
      expect(response.headers['www-authenticate']).toMatch(INVALID_TOKEN)
    })
  }

  it('accepts the scheme name case-insensitively (RFC 9110 §11.1)', async () => {
    const token = await accessTokenFor(t, t.owner)
    const response = await t.request({ method: 'GET', url: COUNTERPARTIES, headers: { authorization: `bearer ${token}` }, as: null })
    expect(response.statusCode).toBe(200)
  })
})

describe('permissions: a role lacking the permission gets 403', () => {
  it('lets a read-only key list and read', async () => {
    const counterparty = await createCounterparty(t)
    expect((await t.request({ method: 'GET', url: COUNTERPARTIES, as: readOnly })).statusCode).toBe(200)
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}`, as: readOnly })
    expect(read.statusCode).toBe(200)
    expect(read.json().id).toBe(counterparty.id)
  })

  it('refuses a read-only key on POST with 403 and creates nothing', async () => {
    const before = await countCounterparties(t)
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: readOnly })
    const body = expectError(response, 403, 'forbidden')
    expect(body.message).toContain('counterparties:create')
    expect(response.headers['www-authenticate']).toBeUndefined()
    expect(await countCounterparties(t)).toBe(before)
  })

  it('refuses a read-only key on PATCH with 403 and changes nothing', async () => {
    const counterparty = await createCounterparty(t)
    const response = await t.request({
      method: 'PATCH',
      url: `${COUNTERPARTIES}/${counterparty.id}`,
      headers: { 'if-match': counterparty.etag },
      body: [{ op: 'replace', path: '/legalName', value: 'Changed' }],
      as: readOnly,
    })
    expectError(response, 403, 'forbidden')
    const after = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })
    expect(after.json()).toMatchObject({ legalName: counterparty.legalName, version: 1 })
  })

  it('refuses a read-only key on DELETE with 403 and deletes nothing', async () => {
    const counterparty = await createCounterparty(t)
    const response = await t.request({ method: 'DELETE', url: `${COUNTERPARTIES}/${counterparty.id}`, headers: { 'if-match': counterparty.etag }, as: readOnly })
    expectError(response, 403, 'forbidden')
    expect((await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })).statusCode).toBe(200)
  })

  it('lets an admin key create, update and delete', async () => {
    const counterparty = await createCounterparty(t, {}, admin)
    const patched = await t.request({
      method: 'PATCH',
      url: `${COUNTERPARTIES}/${counterparty.id}`,
      headers: { 'if-match': counterparty.etag },
      body: [{ op: 'replace', path: '/legalName', value: 'By admin' }],
      as: admin,
    })
    expect(patched.statusCode).toBe(200)
    const deleted = await t.request({ method: 'DELETE', url: `${COUNTERPARTIES}/${counterparty.id}`, headers: { 'if-match': patched.json().etag }, as: admin })
    expect(deleted.statusCode).toBe(204)
  })
})

describe('tenancy: everything is scoped to the key’s organization', () => {
  let other: Credentials
  let foreign: { id: string; etag: string }
  beforeAll(async () => {
    other = await t.newOrganization()
    foreign = await createCounterparty(t, { externalId: 'foreign-1' }, other)
  })

  it('answers 404 (not 403) for another organization’s counterparty on GET, by id and by externalId', async () => {
    const byId = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${foreign.id}` })
    expectError(byId, 404, 'not_found')
    const byExternalId = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:foreign-1` })
    expectError(byExternalId, 404, 'not_found')
  })

  it('answers 404 on PATCH and DELETE of another organization’s counterparty and leaves it untouched', async () => {
    const patch = await t.request({
      method: 'PATCH',
      url: `${COUNTERPARTIES}/${foreign.id}`,
      headers: { 'if-match': foreign.etag },
      body: [{ op: 'replace', path: '/legalName', value: 'Hijacked' }],
    })
    expectError(patch, 404, 'not_found')
    expectError(await t.request({ method: 'DELETE', url: `${COUNTERPARTIES}/${foreign.id}`, headers: { 'if-match': foreign.etag } }), 404, 'not_found')
    const own = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${foreign.id}`, as: other })
    expect(own.statusCode).toBe(200)
    expect(own.json()).toMatchObject({ legalName: 'Acme GmbH', version: 1 })
  })

  it('lists only the organization’s own counterparties', async () => {
    const list = await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=500` })
    const ids = (list.json().items as { id: string }[]).map((item) => item.id)
    expect(ids).not.toContain(foreign.id)
    const theirs = await t.request({ method: 'GET', url: COUNTERPARTIES, as: other })
    expect((theirs.json().items as { id: string }[]).map((item) => item.id)).toEqual([foreign.id])
  })

  it('lets each organization use the same externalId', async () => {
    const mine = await createCounterparty(t, { externalId: 'foreign-1' })
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:foreign-1` })
    expect(read.json().id).toBe(mine.id)
  })

  it('answers 404 for the other organization’s external accounts', async () => {
    const accountId = (foreign as unknown as { accounts: { id: string }[] }).accounts[0]!.id
    expectError(await t.request({ method: 'GET', url: `/payments/v2/external-accounts/${accountId}` }), 404, 'not_found')
  })

  it('shows each organization its own audit log only, and another’s entry is a 404', async () => {
    const audit = '/iam/v2beta/audit-log-entries'
    const theirs = (await t.request({ method: 'GET', url: `${audit}?limit=500`, as: other })).json<{ items: Array<{ id: string; organizationId: string }> }>().items
    expect(theirs.length).toBeGreaterThan(0)
    expect(theirs.every((entry) => entry.organizationId === other.organizationId)).toBe(true)
    const mine = (await t.request({ method: 'GET', url: `${audit}?limit=500` })).json<{ items: Array<{ id: string; organizationId: string }> }>().items
    expect(mine.every((entry) => entry.organizationId === t.owner.organizationId)).toBe(true)
    expectError(await t.request({ method: 'GET', url: `${audit}/${theirs[0]!.id}` }), 404, 'not_found')
  })
})
