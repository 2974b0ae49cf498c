import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createUser, expectError, expectStatus, roleId, USERS } from './iam-helpers.js'
import { asSession, person, SESSION, signIn, signInRequest, type SessionJson } from './session-helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const oneTimePassword = (userId: string, as = t.owner, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: `${USERS}/${userId}/one-time-password`, as, headers })

describe('one-time passwords', () => {
  it('invite a person created through the API: they sign in once with it and must choose their own', async () => {
    const invited = await createUser(t, { type: 'HUMAN', name: 'Invited', email: `invited.${Date.now()}@example.com`, roleId: await roleId(t, 'read-only') })
    expectError(await signInRequest(t, invited.email!, { password: 'anything at all here' }), 401, 'unauthorized')
    const given = await oneTimePassword(invited.id, t.owner, { 'idempotency-key': 'invite-1' })
    expectStatus(given, 201)
    const { password, created } = given.json<{ password: string; created: string }>()
    expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/)
    expect(Date.parse(created)).toBeGreaterThan(Date.now() - 60_000)
    const replay = await oneTimePassword(invited.id, t.owner, { 'idempotency-key': 'invite-1' })
    expect(replay.json()).toEqual({ created })
    const session = await signIn(t, { email: invited.email!, password })
    expect(session.body).toMatchObject({ passwordChangeRequired: true, user: { id: invited.id } })
    expectStatus(await asSession(t, session, { method: 'GET', url: SESSION }), 200)
    expectError(await asSession(t, session, { method: 'GET', url: '/financial-data/v2/accounts' }), 403, 'forbidden')
  })

  it('reset a password: the old one and every session stop working', async () => {
    const ada = await person(t, 'admin')
    const before = await signIn(t, ada)
    expectStatus(await oneTimePassword(ada.userId), 201)
    expectError(await asSession(t, before, { method: 'GET', url: SESSION }), 401, 'unauthorized')
    expectError(await signInRequest(t, ada.email, { password: ada.password }), 401, 'unauthorized')
    const event = await t.db.database.db.selectFrom('events').selectAll().where('entity_id', '=', ada.userId).orderBy('sequence', 'desc').executeTakeFirst()
    expect(event).toMatchObject({ name: 'PASSWORD_SET', originator: t.owner.userId, message: 'One-time password set: a new one is required at sign-in' })
  })

  it('are refused for users with rights the caller lacks, programmatic users, other organizations and read-only keys', async () => {
    const boss = await person(t, 'owner')
    const admin = await t.newKey('admin')
    expectError(await oneTimePassword(boss.userId, admin), 403, 'forbidden')
    expectStatus(await oneTimePassword(boss.userId, t.owner), 201)
    expectError(await oneTimePassword(t.owner.userId), 400, 'invalid_request', 'id')
    const stranger = await t.newOrganization()
    expectError(await oneTimePassword(boss.userId, stranger), 404, 'not_found')
    expectError(await oneTimePassword(boss.userId, await t.newKey('read-only')), 403, 'forbidden')
    const mine = await signIn(t, await person(t, 'admin'))
    expect((await asSession(t, mine, { method: 'GET', url: SESSION })).json<SessionJson>().permissions).toContain('users:update')
    expectError(await asSession(t, mine, { method: 'POST', url: `${USERS}/${boss.userId}/one-time-password` }), 403, 'forbidden')
  })
})
