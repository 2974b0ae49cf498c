import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import {
  CHAINS,
  MISSING_ID,
  USERS,
  createKey,
  createRole,
  createUser,
  currentEtag,
  expectError,
  expectStatus,
  member,
  patch,
  remove,
  roleId,
  type UserJson,
} from './iam-helpers.js'

let t: TestApp
let readOnlyRoleId: string
let adminRoleId: string
let ownerRoleId: string

beforeAll(async () => {
  t = await startTestApp()
  readOnlyRoleId = await roleId(t, 'read-only')
  adminRoleId = await roleId(t, 'admin')
  ownerRoleId = await roleId(t, 'owner')
})
afterAll(() => t.close())

describe('users: create, read, list', () => {
  it('creates a human user with a lower-cased email, and a programmatic one without', async () => {
    const human = await createUser(t, { type: 'HUMAN', name: 'Ada Lovelace', email: 'Ada@Example.com', roleId: readOnlyRoleId })
    expect(human).toMatchObject({ type: 'HUMAN', name: 'Ada Lovelace', email: 'ada@example.com', roleId: readOnlyRoleId, version: 1, etag: 'version:1' })
    const robot = await createUser(t, { type: 'PROGRAMMATIC', name: 'ERP integration', roleId: adminRoleId })
    expect(robot).toMatchObject({ type: 'PROGRAMMATIC', name: 'ERP integration', roleId: adminRoleId })
    expect(robot).not.toHaveProperty('email')
    const fetched = await t.request({ method: 'GET', url: `${USERS}/${human.id}` })
    expectStatus(fetched, 200)
    expect(fetched.json()).toEqual(human)
  })

  it('lists live users oldest first, the Owner leading, filtered by type and role', async () => {
    const all = (await t.request({ method: 'GET', url: USERS })).json<{ items: UserJson[] }>().items
    expect(all[0]).toMatchObject({ id: t.owner.userId, roleId: ownerRoleId })
    const humans = (await t.request({ method: 'GET', url: `${USERS}?type=HUMAN` })).json<{ items: UserJson[] }>().items
    expect(humans.length).toBeGreaterThan(0)
    expect(humans.every((user) => user.type === 'HUMAN')).toBe(true)
    const admins = (await t.request({ method: 'GET', url: `${USERS}?roleId=${adminRoleId}` })).json<{ items: UserJson[] }>().items
    expect(admins.every((user) => user.roleId === adminRoleId)).toBe(true)
    expectError(await t.request({ method: 'GET', url: `${USERS}?type=ROBOT` }), 400, 'invalid_request', 'type')
  })
})

describe('users: validation', () => {
  it.each([
    [{ type: 'HUMAN', name: 'No mail', roleId: 'R' }, 'email'],
    [{ type: 'PROGRAMMATIC', name: 'Mail', email: 'bot@example.com', roleId: 'R' }, 'email'],
    [{ type: 'HUMAN', name: 'Bad mail', email: 'not-an-email', roleId: 'R' }, 'email'],
    [{ type: 'ALIEN', name: 'x', roleId: 'R' }, 'type'],
    [{ type: 'PROGRAMMATIC', name: '', roleId: 'R' }, 'name'],
    [{ type: 'PROGRAMMATIC', name: 'x', roleId: 'nope' }, 'roleId'],
    [{ type: 'PROGRAMMATIC', name: 'x', roleId: MISSING_ID }, 'roleId'],
    [{ type: 'PROGRAMMATIC', name: 'x', roleId: 'R', extra: 1 }, 'extra'],
  ])('refuses %j naming %s', async (body, field) => {
    const withRole = { ...body, ...(body.roleId === 'R' ? { roleId: readOnlyRoleId } : {}) }
    expectError(await t.request({ method: 'POST', url: USERS, body: withRole }), 400, 'invalid_request', field)
  })

  it('refuses a role of another organization (400) and an email a live user has (409)', async () => {
    const other = await t.newOrganization()
    const theirRole = await roleId(t, 'admin', other)
    expectError(await t.request({ method: 'POST', url: USERS, body: { type: 'PROGRAMMATIC', name: 'x', roleId: theirRole } }), 400, 'invalid_request', 'roleId')
    await createUser(t, { type: 'HUMAN', name: 'Grace', email: 'grace@example.com', roleId: readOnlyRoleId })
    expectError(
      await t.request({ method: 'POST', url: USERS, body: { type: 'HUMAN', name: 'Grace 2', email: 'GRACE@example.com', roleId: readOnlyRoleId } }),
      409,
      'conflict',
    )
    // Another organization may have a user with the same email.
    expectStatus(await t.request({ method: 'POST', url: USERS, body: { type: 'HUMAN', name: 'Grace', email: 'grace@example.com', roleId: theirRole }, as: other }), 201)
  })
})

describe('users: update', () => {
  it('patches name, email and role with If-Match; the new role applies to the next request', async () => {
    const user = await member(t, readOnlyRoleId, 'Promoted later')
    expectError(await t.request({ method: 'POST', url: USERS, body: { type: 'PROGRAMMATIC', name: 'x', roleId: readOnlyRoleId }, as: user }), 403, 'forbidden')
    const current = (await t.request({ method: 'GET', url: `${USERS}/${user.userId}` })).json<UserJson>()
    const patched = await patch(t, `${USERS}/${user.userId}`, current.etag, [
      { op: 'replace', path: '/name', value: 'Promoted' },
      { op: 'replace', path: '/roleId', value: adminRoleId },
    ])
    expectStatus(patched, 200)
    expect(patched.json()).toMatchObject({ name: 'Promoted', roleId: adminRoleId, version: current.version + 1 })
    const etag = patched.json<UserJson>().etag
    expectStatus(await t.request({ method: 'POST', url: USERS, body: { type: 'PROGRAMMATIC', name: 'x', roleId: readOnlyRoleId }, as: user }), 201)

    expectError(await patch(t, `${USERS}/${user.userId}`, current.etag, [{ op: 'replace', path: '/name', value: 'x' }]), 412, 'precondition_failed')
    expectError(await t.request({ method: 'PATCH', url: `${USERS}/${user.userId}`, body: [{ op: 'replace', path: '/name', value: 'x' }] }), 428, 'precondition_required')
    expectError(await patch(t, `${USERS}/${user.userId}`, etag, [{ op: 'replace', path: '/type', value: 'HUMAN' }]), 400, 'invalid_patch')
    expectError(await patch(t, `${USERS}/${user.userId}`, etag, [{ op: 'replace', path: '/email', value: 'a@b.c' }]), 400, 'invalid_request', 'email')
    expectError(await patch(t, `${USERS}/${user.userId}`, etag, [{ op: 'replace', path: '/roleId', value: MISSING_ID }]), 400, 'invalid_request', 'roleId')
  })

  it("changes a human user's email", async () => {
    const human = await createUser(t, { type: 'HUMAN', name: 'Mover', email: 'old@example.com', roleId: readOnlyRoleId })
    const patched = await patch(t, `${USERS}/${human.id}`, human.etag, [{ op: 'replace', path: '/email', value: 'New@Example.com' }])
    expectStatus(patched, 200)
    expect(patched.json().email).toBe('new@example.com')
  })
})

describe('users: delete', () => {
  it("deletes a user softly: 410 afterwards, its keys stop working at once", async () => {
    const user = await member(t, readOnlyRoleId, 'Leaver')
    expectStatus(await t.request({ method: 'GET', url: USERS, as: user }), 200)
    const etag = await currentEtag(t, `${USERS}/${user.userId}`)
    expectError(await t.request({ method: 'DELETE', url: `${USERS}/${user.userId}` }), 428, 'precondition_required')
    expectError(await remove(t, `${USERS}/${user.userId}`, 'version:9'), 412, 'precondition_failed')
    expectStatus(await t.request({ method: 'GET', url: USERS, as: user }), 200)
    expectStatus(await remove(t, `${USERS}/${user.userId}`, etag), 204)
    expectError(await t.request({ method: 'GET', url: USERS, as: user }), 401, 'unauthorized')
    expectError(await t.request({ method: 'GET', url: `${USERS}/${user.userId}` }), 410, 'gone')
    expectError(await remove(t, `${USERS}/${user.userId}`, etag), 410, 'gone')
    expectError(await t.request({ method: 'POST', url: `${USERS}/${user.userId}/access-keys` }), 410, 'gone')
    const listed = (await t.request({ method: 'GET', url: USERS })).json<{ items: UserJson[] }>().items
    expect(listed.map((item) => item.id)).not.toContain(user.userId)
  })

  it('refuses to delete a named approver of a live approval chain (409)', async () => {
    const approver = await createUser(t, { type: 'PROGRAMMATIC', name: 'Named approver', roleId: readOnlyRoleId })
    const chain = await t.request({ method: 'POST', url: CHAINS, body: { name: 'Names a user', trigger: { currency: 'SEK' }, steps: [{ requiredUserIds: [approver.id] }] } })
    expectStatus(chain, 201)
    expect(expectError(await remove(t, `${USERS}/${approver.id}`, approver.etag), 409, 'conflict').message).toMatch(/"Names a user"/)
    expectStatus(await remove(t, `${CHAINS}/${chain.json().id}`, chain.json().etag), 204)
    expectStatus(await remove(t, `${USERS}/${approver.id}`, approver.etag), 204)
  })
})

describe('users: authorization and tenancy', () => {
  it('lets a read-only key read users but not change them (403)', async () => {
    const readOnly = await t.newKey('read-only')
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'Target', roleId: readOnlyRoleId })
    expectStatus(await t.request({ method: 'GET', url: `${USERS}/${user.id}`, as: readOnly }), 200)
    expectError(await t.request({ method: 'POST', url: USERS, body: { type: 'PROGRAMMATIC', name: 'x', roleId: readOnlyRoleId }, as: readOnly }), 403, 'forbidden')
    expectError(await patch(t, `${USERS}/${user.id}`, user.etag, [{ op: 'replace', path: '/name', value: 'x' }], readOnly), 403, 'forbidden')
    expectError(await remove(t, `${USERS}/${user.id}`, user.etag, readOnly), 403, 'forbidden')
    expectError(await t.request({ method: 'POST', url: `${USERS}/${user.id}/access-keys`, as: readOnly }), 403, 'forbidden')
  })

  it("hides another organization's users (404)", async () => {
    const other = await t.newOrganization()
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'Ours', roleId: readOnlyRoleId })
    expectError(await t.request({ method: 'GET', url: `${USERS}/${user.id}`, as: other }), 404, 'not_found')
    expectError(await patch(t, `${USERS}/${user.id}`, user.etag, [{ op: 'replace', path: '/name', value: 'x' }], other), 404, 'not_found')
    expectError(await remove(t, `${USERS}/${user.id}`, user.etag, other), 404, 'not_found')
    expectError(await t.request({ method: 'POST', url: `${USERS}/${user.id}/access-keys`, as: other }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${USERS}/${user.id}/access-keys`, as: other }), 404, 'not_found')
  })

  it('lets only an Owner grant owner rights, and nobody assign a role with permissions they lack', async () => {
    const admin = await t.newKey('admin')
    expect(
      expectError(await t.request({ method: 'POST', url: USERS, body: { type: 'PROGRAMMATIC', name: 'Usurper', roleId: ownerRoleId }, as: admin }), 403, 'forbidden')
        .message,
    ).toMatch(/Only an Owner/)
    const self = (await t.request({ method: 'GET', url: `${USERS}/${admin.userId}` })).json<UserJson>()
    expectError(await patch(t, `${USERS}/${admin.userId}`, self.etag, [{ op: 'replace', path: '/roleId', value: ownerRoleId }], admin), 403, 'forbidden')
    // An admin may not take an Owner's rights away, nor mint a key that acts as the Owner.
    expectError(await remove(t, `${USERS}/${t.owner.userId}`, await currentEtag(t, `${USERS}/${t.owner.userId}`), admin), 403, 'forbidden')
    expectError(await t.request({ method: 'POST', url: `${USERS}/${t.owner.userId}/access-keys`, as: admin }), 403, 'forbidden')

    const userManagerRole = await createRole(t, 'user-manager', ['users:read', 'users:create', 'users:update', 'accounts:read'])
    const manager = await member(t, userManagerRole.id, 'User manager')
    expectError(await t.request({ method: 'POST', url: USERS, body: { type: 'PROGRAMMATIC', name: 'x', roleId: adminRoleId }, as: manager }), 403, 'forbidden')
    const subset = await createRole(t, 'accounts-reader', ['accounts:read'])
    expectStatus(await t.request({ method: 'POST', url: USERS, body: { type: 'PROGRAMMATIC', name: 'x', roleId: subset.id }, as: manager }), 201)
  })
})

describe('the last Owner', () => {
  it('may not delete or demote themselves, nor revoke their last key, while no other Owner can act', async () => {
    const o = await startTestApp()
    try {
      const owners = await roleId(o, 'owner')
      const admins = await roleId(o, 'admin')
      const self = (await o.request({ method: 'GET', url: `${USERS}/${o.owner.userId}` })).json<UserJson>()
      const keys = (await o.request({ method: 'GET', url: `${USERS}/${o.owner.userId}/access-keys` })).json<{ items: Array<{ id: string }> }>().items
      expect(keys).toHaveLength(1)

      expect(expectError(await remove(o, `${USERS}/${o.owner.userId}`, self.etag), 409, 'conflict').message).toMatch(/keep an Owner/)
      expectError(await patch(o, `${USERS}/${o.owner.userId}`, self.etag, [{ op: 'replace', path: '/roleId', value: admins }]), 409, 'conflict')
      expectError(await o.request({ method: 'DELETE', url: `${USERS}/${o.owner.userId}/access-keys/${keys[0]!.id}` }), 409, 'conflict')
      // Nothing changed: the Owner still acts.
      expectStatus(await o.request({ method: 'GET', url: `${USERS}/${o.owner.userId}` }), 200)

      // A human Owner without a key cannot act through the API, so it does not count.
      await createUser(o, { type: 'HUMAN', name: 'Co-owner', email: 'co@example.com', roleId: owners })
      expectError(await remove(o, `${USERS}/${o.owner.userId}`, self.etag), 409, 'conflict')

      // With a second Owner holding a key, the first may step down.
      const second = await member(o, owners, 'Second owner')
      expectStatus(await patch(o, `${USERS}/${o.owner.userId}`, self.etag, [{ op: 'replace', path: '/roleId', value: admins }]), 200)
      expectError(await remove(o, `${USERS}/${second.userId}`, await currentEtag(o, `${USERS}/${second.userId}`), second), 409, 'conflict')
      const newKey = await createKey(o, second.userId, second)
      expectStatus(await o.request({ method: 'DELETE', url: `${USERS}/${second.userId}/access-keys/${newKey.id}`, as: second }), 204)
    } finally {
      await o.close()
    }
  })
})

describe('concurrent changes to Owners', () => {
  it('lets only one of two Owners removing each other at once succeed', async () => {
    const o = await startTestApp()
    try {
      const owners = await roleId(o, 'owner')
      const second = await member(o, owners, 'Second owner')
      // Both keys authenticated (and their grants cached) first, so the two deletions race in the database, not in authentication.
      expect((await o.request({ method: 'GET', url: `${USERS}/${o.owner.userId}`, as: second })).statusCode).toBe(200)
      const etags = [await currentEtag(o, `${USERS}/${second.userId}`), await currentEtag(o, `${USERS}/${o.owner.userId}`)]
      const responses = await Promise.all([
        remove(o, `${USERS}/${second.userId}`, etags[0]!),
        remove(o, `${USERS}/${o.owner.userId}`, etags[1]!, second),
      ])
      expect(responses.map((response) => response.statusCode).sort()).toEqual([204, 409])
      const survivors = (await o.db.database.db.selectFrom('users').select('id').where('deleted_at', 'is', null).where('role_id', '=', owners).execute()).length
      expect(survivors).toBe(1)
    } finally {
      await o.close()
    }
  })
})
