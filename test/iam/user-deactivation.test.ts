import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { USERS, createKey, expectError, expectStatus, member, roleId, type UserJson } from './iam-helpers.js'
import { asSession, person, SESSION, signIn, signInRequest } from './session-helpers.js'

let t: TestApp
let adminRoleId: string
let ownerRoleId: string
let readOnlyRoleId: string

beforeAll(async () => {
  t = await startTestApp()
  adminRoleId = await roleId(t, 'admin')
  ownerRoleId = await roleId(t, 'owner')
  readOnlyRoleId = await roleId(t, 'read-only')
})
afterAll(() => t.close())

type StatusJson = UserJson & { status: 'ACTIVE' | 'DEACTIVATED'; deactivated?: string }

function change(action: 'deactivate' | 'reactivate', userId: string, as: Credentials = t.owner) {
  return t.request({ method: 'POST', url: `${USERS}/${userId}:${action}`, as })
}

async function eventNames(userId: string): Promise<string[]> {
  const rows = await t.db.database.db.selectFrom('events').select('name').where('entity_id', '=', userId).orderBy('sequence').execute()
  return rows.map((row) => row.name)
}

describe('deactivating a user', () => {
  it("stops their key, session and sign-in at once; reactivating restores the key but not the session", async () => {
    const ada = await person(t, 'read-only')
    const key = await createKey(t, ada.userId)
    const asKey = { ...t.owner, userId: ada.userId, accessKey: key.accessKey, secret: key.secret! }
    const session = await signIn(t, ada)
    // Used once first, so the key's grant is cached: deactivation must drop it.
    expectStatus(await t.request({ method: 'GET', url: USERS, as: asKey }), 200)
    expectStatus(await asSession(t, session, { method: 'GET', url: SESSION }), 200)

    const before = (await t.request({ method: 'GET', url: `${USERS}/${ada.userId}` })).json<StatusJson>()
    expect(before.status).toBe('ACTIVE')
    const deactivated = await change('deactivate', ada.userId)
    expectStatus(deactivated, 200)
    const body = deactivated.json<StatusJson>()
    expect(body).toMatchObject({ id: ada.userId, status: 'DEACTIVATED', version: before.version + 1 })
    expect(Date.parse(body.deactivated!)).toBeGreaterThan(Date.now() - 60_000)
    expect((await t.request({ method: 'GET', url: `${USERS}/${ada.userId}` })).json<StatusJson>()).toEqual(body)

    expectError(await t.request({ method: 'GET', url: USERS, as: asKey }), 401, 'unauthorized')
    expectError(await asSession(t, session, { method: 'GET', url: SESSION }), 401, 'unauthorized')
    const refused = expectError(await signInRequest(t, ada.email, { password: ada.password }), 401, 'unauthorized')
    const wrongPassword = expectError(await signInRequest(t, ada.email, { password: 'not the password at all' }), 401, 'unauthorized')
    expect(refused.message).toBe(wrongPassword.message)
    const row = await t.db.database.db.selectFrom('sessions').select('revoked_at').where('id', '=', session.body.id).executeTakeFirstOrThrow()
    expect(row.revoked_at).toBe(body.deactivated)
    expectError(await change('deactivate', ada.userId), 409, 'conflict')

    const reactivated = await change('reactivate', ada.userId)
    expectStatus(reactivated, 200)
    expect(reactivated.json<StatusJson>()).toMatchObject({ status: 'ACTIVE', version: before.version + 2 })
    expect(reactivated.json<StatusJson>()).not.toHaveProperty('deactivated')
    expectStatus(await t.request({ method: 'GET', url: USERS, as: asKey }), 200)
    expectError(await asSession(t, session, { method: 'GET', url: SESSION }), 401, 'unauthorized')
    expectStatus(await signInRequest(t, ada.email, { password: ada.password }), 201)
    expectError(await change('reactivate', ada.userId), 409, 'conflict')

    expect(await eventNames(ada.userId)).toEqual(expect.arrayContaining(['DEACTIVATED', 'REACTIVATED']))
    const names = await eventNames(ada.userId)
    expect(names.slice(names.indexOf('DEACTIVATED'))).toEqual(['DEACTIVATED', 'REACTIVATED'])
    const event = await t.db.database.db.selectFrom('events').selectAll().where('entity_id', '=', ada.userId).where('name', '=', 'DEACTIVATED').executeTakeFirstOrThrow()
    expect(event.originator).toBe(t.owner.userId)
  })

  it('lists deactivated users with their status', async () => {
    const robot = await member(t, readOnlyRoleId, 'Listed robot')
    expectStatus(await change('deactivate', robot.userId), 200)
    const items = (await t.request({ method: 'GET', url: `${USERS}?limit=100` })).json<{ items: StatusJson[] }>().items
    expect(items.find((user) => user.id === robot.userId)?.status).toBe('DEACTIVATED')
    expect(items.find((user) => user.id === t.owner.userId)?.status).toBe('ACTIVE')
  })

  it('lets only someone who could assign the role deactivate: an admin may not touch an Owner', async () => {
    const admin = await member(t, adminRoleId, 'Admin')
    const coOwner = await member(t, ownerRoleId, 'Co-owner')
    expect(expectError(await change('deactivate', coOwner.userId, admin), 403, 'forbidden').message).toMatch(/Only an Owner/)
    expectStatus(await t.request({ method: 'GET', url: USERS, as: coOwner }), 200)
    const reader = await member(t, readOnlyRoleId, 'Reader')
    expectError(await change('deactivate', admin.userId, reader), 403, 'forbidden')
    expectStatus(await change('deactivate', reader.userId, admin), 200)
    expectStatus(await change('reactivate', reader.userId, admin), 200)
  })

  it('refuses (409) to deactivate the last active Owner with a key, and counts only active Owners', async () => {
    const org = await t.newOrganization('Single owner')
    const owners = await roleId(t, 'owner', org)
    expect(expectError(await change('deactivate', org.userId, org), 409, 'conflict').message).toMatch(/keep an Owner/)
    const second = await member(t, owners, 'Second owner', org)
    expectStatus(await change('deactivate', second.userId, org), 200)
    // The deactivated second Owner does not count: the first is still the last.
    expectError(await change('deactivate', org.userId, org), 409, 'conflict')
    expectStatus(await change('reactivate', second.userId, org), 200)
    expectStatus(await change('deactivate', org.userId, second), 200)
    expectError(await t.request({ method: 'GET', url: USERS, as: org }), 401, 'unauthorized')
  })

  it('answers 404 for an unknown user and 410 for a deleted one', async () => {
    expectError(await change('deactivate', '01900000-0000-7000-8000-000000000000'), 404, 'not_found')
    const robot = await member(t, readOnlyRoleId, 'Doomed')
    expectStatus(await t.request({ method: 'DELETE', url: `${USERS}/${robot.userId}`, headers: { 'if-match': 'version:2' } }), 204)
    expectError(await change('deactivate', robot.userId), 410, 'gone')
  })
})
