import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { MISSING_ID, USERS, createKey, createUser, expectError, expectStatus, roleId, type UserJson } from './iam-helpers.js'

let t: TestApp
let readOnlyRoleId: string

beforeAll(async () => {
  // The default grant cache (5 s): revocations must still take effect at once in this process.
  t = await startTestApp()
  readOnlyRoleId = await roleId(t, 'read-only')
})
afterAll(() => t.close())

function keysOf(userId: string) {
  return t.request({ method: 'GET', url: `${USERS}/${userId}/access-keys` })
}

describe('access keys', () => {
  it('creates a key whose secret is shown once and works at once', async () => {
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'Reporting', roleId: readOnlyRoleId })
    const created = await t.request({ method: 'POST', url: `${USERS}/${user.id}/access-keys` })
    expectStatus(created, 201)
    const key = created.json()
    expect(key).toMatchObject({ userId: user.id, accessKey: expect.stringMatching(/^KA[A-Z0-9x]+$/), secret: expect.any(String) })
    expect(key.secret.length).toBeGreaterThanOrEqual(40)

    const asKey = { accessKey: key.accessKey, secret: key.secret }
    const whoAmI = await t.request({ method: 'GET', url: `${USERS}/${user.id}`, headers: { authorization: basicAuth(asKey) }, as: null })
    expectStatus(whoAmI, 200)
    expectError(await t.request({ method: 'GET', url: `${USERS}/${user.id}`, headers: { authorization: basicAuth({ ...asKey, secret: 'wrong' }) }, as: null }), 401, 'unauthorized')

    const listed = await keysOf(user.id)
    expectStatus(listed, 200)
    expect(listed.json().items).toEqual([{ id: key.id, userId: user.id, accessKey: key.accessKey, created: key.created }])
    expect(listed.body).not.toContain(key.secret)

    // The user's history tells about its keys, without secrets.
    const row = await t.db.database.db.selectFrom('events').selectAll().where('entity_id', '=', user.id).orderBy('sequence').execute()
    expect(row.map((event) => event.name)).toEqual(['CREATED', 'ACCESS_KEY_CREATED'])
    expect(JSON.stringify(row)).not.toContain(key.secret)
  })

  it('revokes a key: it gets 401 on the next request, the others keep working', async () => {
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'Rotating', roleId: readOnlyRoleId })
    const old = await createKey(t, user.id)
    const fresh = await createKey(t, user.id)
    const asOld = { accessKey: old.accessKey, secret: old.secret! }
    expectStatus(await t.request({ method: 'GET', url: USERS, as: { ...asOld, organizationId: '', userId: '', role: '' } }), 200)

    expectStatus(await t.request({ method: 'DELETE', url: `${USERS}/${user.id}/access-keys/${old.id}` }), 204)
    expectError(await t.request({ method: 'GET', url: USERS, as: { ...asOld, organizationId: '', userId: '', role: '' } }), 401, 'unauthorized')
    expectStatus(await t.request({ method: 'GET', url: USERS, as: { accessKey: fresh.accessKey, secret: fresh.secret!, organizationId: '', userId: '', role: '' } }), 200)

    expect((await keysOf(user.id)).json().items.map((key: { id: string }) => key.id)).toEqual([fresh.id])
    expectError(await t.request({ method: 'DELETE', url: `${USERS}/${user.id}/access-keys/${old.id}` }), 410, 'gone')
    expectError(await t.request({ method: 'DELETE', url: `${USERS}/${user.id}/access-keys/${MISSING_ID}` }), 404, 'not_found')
    // A key is revoked through its own user only.
    const other = await createUser(t, { type: 'PROGRAMMATIC', name: 'Other', roleId: readOnlyRoleId })
    expectError(await t.request({ method: 'DELETE', url: `${USERS}/${other.id}/access-keys/${fresh.id}` }), 404, 'not_found')
  })

  it('replays a creation by its Idempotency-Key without the secret, which is stored nowhere in clear', async () => {
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'Retried', roleId: readOnlyRoleId })
    const send = () => t.request({ method: 'POST', url: `${USERS}/${user.id}/access-keys`, headers: { 'idempotency-key': `key-${user.id}` } })
    const first = await send()
    expectStatus(first, 201)
    const replay = await send()
    expectStatus(replay, 201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    const { secret, ...withoutSecret } = first.json()
    expect(replay.json()).toEqual(withoutSecret)
    const stored = await t.db.database.db.selectFrom('idempotency_keys').select('response_body').execute()
    expect(stored.some((row) => row.response_body?.includes(secret))).toBe(false)
    expect((await keysOf(user.id)).json().items).toHaveLength(1)
  })

  it('allows at most 10 active keys per user', async () => {
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'Hoarder', roleId: readOnlyRoleId })
    for (let index = 0; index < 10; index += 1) await createKey(t, user.id)
    expectError(await t.request({ method: 'POST', url: `${USERS}/${user.id}/access-keys` }), 409, 'conflict')
  })

  it("bumps the user's version with each key change", async () => {
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'Versioned', roleId: readOnlyRoleId })
    const key = await createKey(t, user.id)
    expectStatus(await t.request({ method: 'DELETE', url: `${USERS}/${user.id}/access-keys/${key.id}` }), 204)
    expect((await t.request({ method: 'GET', url: `${USERS}/${user.id}` })).json<UserJson>().version).toBe(3)
  })
})
