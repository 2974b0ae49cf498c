import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CHAINS, MISSING_ID, ROLES, USERS, createRole, createUser, expectError, expectStatus, member, patch, remove, roleId, type RoleJson } from './iam-helpers.js'

let t: TestApp

beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

describe('roles: create, read, list', () => {
  it('lists the built-in roles first, read-only and with the owner flag only on owner', async () => {
    const response = await t.request({ method: 'GET', url: ROLES })
    expectStatus(response, 200)
    const roles = response.json<{ items: RoleJson[] }>().items
    expect(roles.slice(0, 3).map((role) => [role.name, role.builtin, role.owner])).toEqual([
      ['owner', true, true],
      ['admin', true, false],
      ['read-only', true, false],
    ])
    expect(roles[2]!.permissions.every((permission) => permission.endsWith(':read'))).toBe(true)
  })

  it('creates a custom role with permissions in catalogue order, and gets it', async () => {
    const created = await t.request({
      method: 'POST',
      url: ROLES,
      body: { name: 'Treasury clerk', description: 'Prepares payments', permissions: ['credit_transfers:read', 'credit_transfers:create', 'accounts:read'] },
    })
    expectStatus(created, 201)
    const role = created.json<RoleJson>()
    expect(role).toMatchObject({
      name: 'Treasury clerk',
      description: 'Prepares payments',
      builtin: false,
      owner: false,
      permissions: ['accounts:read', 'credit_transfers:read', 'credit_transfers:create'],
      version: 1,
      etag: 'version:1',
    })
    const fetched = await t.request({ method: 'GET', url: `${ROLES}/${role.id}` })
    expectStatus(fetched, 200)
    expect(fetched.json()).toEqual(role)
  })

  it('pages through roles with nextToken', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) await createRole(t, name, [])
    const seen: string[] = []
    let token = ''
    do {
      const page = (await t.request({ method: 'GET', url: `${ROLES}?limit=2&token=${token}` })).json<{ items: RoleJson[]; nextToken: string }>()
      expect(page.items.length).toBeLessThanOrEqual(2)
      seen.push(...page.items.map((role) => role.name))
      token = page.nextToken
    } while (token !== '')
    expect(seen).toEqual(expect.arrayContaining(['owner', 'page-a', 'page-b', 'page-c']))
    expect(new Set(seen).size).toBe(seen.length)
  })
})

describe('roles: validation', () => {
  it.each([
    [{ name: 'x', permissions: ['credit_transfers:fly'] }, 'permissions.0'],
    [{ name: 'x', permissions: ['accounts:read', 'accounts:read'] }, 'permissions'],
    [{ name: '', permissions: [] }, 'name'],
    [{ name: ' padded', permissions: [] }, 'name'],
    [{ name: 'x'.repeat(65), permissions: [] }, 'name'],
    [{ permissions: [] }, 'name'],
    [{ name: 'x' }, 'permissions'],
    [{ name: 'x', permissions: [], owner: true }, 'owner'],
  ])('refuses %j naming %s', async (body, field) => {
    expectError(await t.request({ method: 'POST', url: ROLES, body }), 400, 'invalid_request', field)
  })

  it('refuses a name another live role has (409)', async () => {
    await createRole(t, 'duplicate', [])
    expectError(await t.request({ method: 'POST', url: ROLES, body: { name: 'duplicate', permissions: [] } }), 409, 'conflict')
    expectError(await t.request({ method: 'POST', url: ROLES, body: { name: 'owner', permissions: [] } }), 409, 'conflict')
  })

  it('answers 400 for an id that is no UUID, 404 for an unknown one', async () => {
    expectError(await t.request({ method: 'GET', url: `${ROLES}/not-a-uuid` }), 400, 'invalid_request', 'id')
    expectError(await t.request({ method: 'GET', url: `${ROLES}/${MISSING_ID}` }), 404, 'not_found')
  })
})

describe('roles: update', () => {
  it('patches name, permissions and description with If-Match', async () => {
    const role = await createRole(t, 'to-patch', ['accounts:read'])
    const patched = await patch(t, `${ROLES}/${role.id}`, role.etag, [
      { op: 'replace', path: '/name', value: 'patched' },
      { op: 'add', path: '/permissions/-', value: 'transactions:read' },
      { op: 'add', path: '/description', value: 'Reads' },
    ])
    expectStatus(patched, 200)
    expect(patched.json()).toMatchObject({ name: 'patched', permissions: ['accounts:read', 'transactions:read'], description: 'Reads', version: 2 })
    expectError(await patch(t, `${ROLES}/${role.id}`, role.etag, [{ op: 'replace', path: '/name', value: 'again' }]), 412, 'precondition_failed')
    expectError(await patch(t, `${ROLES}/${role.id}`, 'version:2', [{ op: 'replace', path: '/builtin', value: true }]), 400, 'invalid_patch')
    expectError(
      await patch(t, `${ROLES}/${role.id}`, 'version:2', [{ op: 'add', path: '/permissions/-', value: 'everything:all' }]),
      400,
      'invalid_patch',
      'permissions.2',
    )
  })

  it('refuses changes to built-in roles with 409', async () => {
    const role = (await t.request({ method: 'GET', url: `${ROLES}/${await roleId(t, 'read-only')}` })).json<RoleJson>()
    const body = expectError(await patch(t, `${ROLES}/${role.id}`, role.etag, [{ op: 'replace', path: '/permissions', value: [] }]), 409, 'conflict')
    expect(body.message).toMatch(/built-in role "read-only" is read-only/)
    expectError(await remove(t, `${ROLES}/${role.id}`, role.etag), 409, 'conflict')
  })

  it("applies a role's new permissions to its holders on their next request", async () => {
    const role = await createRole(t, 'reader-then-not', ['roles:read'])
    const reader = await member(t, role.id, 'Reader')
    expectStatus(await t.request({ method: 'GET', url: ROLES, as: reader }), 200)
    expectStatus(await patch(t, `${ROLES}/${role.id}`, role.etag, [{ op: 'replace', path: '/permissions', value: [] }]), 200)
    expectError(await t.request({ method: 'GET', url: ROLES, as: reader }), 403, 'forbidden')
  })
})

describe('roles: delete', () => {
  it('deletes an unused role softly (410 after), and frees its name', async () => {
    const role = await createRole(t, 'short-lived', ['accounts:read'])
    expectError(await t.request({ method: 'DELETE', url: `${ROLES}/${role.id}` }), 428, 'precondition_required')
    expectError(await remove(t, `${ROLES}/${role.id}`, 'version:9'), 412, 'precondition_failed')
    expectStatus(await remove(t, `${ROLES}/${role.id}`, role.etag), 204)
    expectError(await t.request({ method: 'GET', url: `${ROLES}/${role.id}` }), 410, 'gone')
    expectError(await remove(t, `${ROLES}/${role.id}`, 'version:2'), 410, 'gone')
    const names = (await t.request({ method: 'GET', url: ROLES })).json<{ items: RoleJson[] }>().items.map((item) => item.name)
    expect(names).not.toContain('short-lived')
    expect((await createRole(t, 'short-lived', [])).name).toBe('short-lived')
  })

  it('refuses to delete a role users hold, or one an approval chain names (409)', async () => {
    const held = await createRole(t, 'held', ['accounts:read'])
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'Holder', roleId: held.id })
    expect(expectError(await remove(t, `${ROLES}/${held.id}`, held.etag), 409, 'conflict').message).toMatch(/held by 1 user/)

    const named = await createRole(t, 'named', ['credit_transfers:approve'])
    const chain = await t.request({ method: 'POST', url: CHAINS, body: { name: 'Names a role', trigger: { currency: 'SEK' }, steps: [{ requiredRoleIds: [named.id] }] } })
    expectStatus(chain, 201)
    expect(expectError(await remove(t, `${ROLES}/${named.id}`, named.etag), 409, 'conflict').message).toMatch(/"Names a role"/)

    // Once the holder is gone (deleted users keep pointing at their role), the role can go.
    expectStatus(await remove(t, `${USERS}/${user.id}`, user.etag), 204)
    expectStatus(await remove(t, `${ROLES}/${held.id}`, held.etag), 204)
    expectStatus(await remove(t, `${CHAINS}/${chain.json().id}`, chain.json().etag), 204)
    expectStatus(await remove(t, `${ROLES}/${named.id}`, named.etag), 204)
  })
})

describe('roles: authorization and tenancy', () => {
  it('lets a read-only key read roles but not change them (403)', async () => {
    const readOnly = await t.newKey('read-only')
    expectStatus(await t.request({ method: 'GET', url: ROLES, as: readOnly }), 200)
    const role = await createRole(t, 'guarded', [])
    expectError(await t.request({ method: 'POST', url: ROLES, body: { name: 'nope', permissions: [] }, as: readOnly }), 403, 'forbidden')
    expectError(await patch(t, `${ROLES}/${role.id}`, role.etag, [{ op: 'replace', path: '/name', value: 'n' }], readOnly), 403, 'forbidden')
    expectError(await remove(t, `${ROLES}/${role.id}`, role.etag, readOnly), 403, 'forbidden')
  })

  it("hides another organization's roles (404)", async () => {
    const other = await t.newOrganization()
    const role = await createRole(t, 'ours', [])
    expectError(await t.request({ method: 'GET', url: `${ROLES}/${role.id}`, as: other }), 404, 'not_found')
    expectError(await patch(t, `${ROLES}/${role.id}`, role.etag, [{ op: 'replace', path: '/name', value: 'theirs' }], other), 404, 'not_found')
    expectError(await remove(t, `${ROLES}/${role.id}`, role.etag, other), 404, 'not_found')
    const theirs = (await t.request({ method: 'GET', url: ROLES, as: other })).json<{ items: RoleJson[] }>().items
    expect(theirs.map((item) => item.id)).not.toContain(role.id)
  })

  it('lets nobody but an Owner grant permissions they lack', async () => {
    const limited = await createRole(t, 'role-manager', ['roles:read', 'roles:create', 'roles:update', 'accounts:read'])
    const manager = await member(t, limited.id, 'Role manager')
    expectStatus(await t.request({ method: 'POST', url: ROLES, body: { name: 'subset', permissions: ['accounts:read'] }, as: manager }), 201)
    const body = expectError(
      await t.request({ method: 'POST', url: ROLES, body: { name: 'escalation', permissions: ['users:create'] }, as: manager }),
      403,
      'forbidden',
    )
    expect(body.message).toMatch(/users:create/)
  })
})
