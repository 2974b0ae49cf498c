import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { currentEtag, expectError, expectStatus, patch, remove, roleId, USERS } from './iam-helpers.js'
import {
  asSession,
  CHANGE_PASSWORD,
  expectSessionOf,
  person,
  SESSION,
  sessionRow,
  signIn,
  signInRequest,
  SIGN_OUT,
  type SessionJson,
  type SignedIn,
} from './session-helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const ACCOUNTS = '/financial-data/v2/accounts'
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

async function setSession(id: string, changes: { last_seen_at?: string; expires_at?: string }): Promise<void> {
  await t.db.database.db.updateTable('sessions').set(changes).where('id', '=', id).execute()
}

const reads = (session: SignedIn) => asSession(t, session, { method: 'GET', url: ACCOUNTS })

describe('the signed-in session', () => {
  it('GET /iam/v2/session gives the session and the same CSRF token after a reload; an access key has none', async () => {
    const ada = await person(t, 'admin')
    const session = await signIn(t, ada)
    const current = expectSessionOf(await asSession(t, session, { method: 'GET', url: SESSION }), ada)
    expect(current).toEqual({ ...session.body, user: current.user })
    expect(current.csrfToken).toBe(session.body.csrfToken)
    expectError(await t.request({ method: 'GET', url: SESSION }), 404, 'not_found')
  })

  it('signs out: the session ends, the cookie is cleared, and its next request is a 401', async () => {
    const session = await signIn(t, await person(t, 'admin'))
    expectError(await asSession(t, session, { method: 'POST', url: SIGN_OUT, csrf: false }), 403, 'forbidden')
    const out = await asSession(t, session, { method: 'POST', url: SIGN_OUT })
    expectStatus(out, 204)
    expect(out.headers['set-cookie']).toBe('kassa_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0')
    expect((await sessionRow(t, session.body.id))!.revoked_at).not.toBeNull()
    expectError(await reads(session), 401, 'unauthorized')
    expectError(await t.request({ method: 'POST', url: SIGN_OUT }), 404, 'not_found')
  })

  it('ends after 30 minutes without a request, and 12 hours after sign-in however busy', async () => {
    const ada = await person(t, 'admin')
    const idle = await signIn(t, ada)
    await setSession(idle.body.id, { last_seen_at: minutesAgo(29) })
    expectStatus(await reads(idle), 200)
    // A request at 29 minutes renewed it.
    expect(Date.parse((await sessionRow(t, idle.body.id))!.last_seen_at)).toBeGreaterThan(Date.now() - 60_000)
    await setSession(idle.body.id, { last_seen_at: minutesAgo(31) })
    expectError(await reads(idle), 401, 'unauthorized')

    const busy = await signIn(t, ada)
    await setSession(busy.body.id, { expires_at: minutesAgo(0.1) })
    expectError(await reads(busy), 401, 'unauthorized')
  })

  it('writes last_seen_at at most once a minute', async () => {
    const session = await signIn(t, await person(t, 'admin'))
    const fresh = minutesAgo(0.5)
    await setSession(session.body.id, { last_seen_at: fresh })
    expectStatus(await reads(session), 200)
    expect((await sessionRow(t, session.body.id))!.last_seen_at).toBe(fresh)
  })

  it("acts with the user's current role: a new role and a deletion apply to the next request", async () => {
    const ada = await person(t, 'admin')
    const session = await signIn(t, ada)
    const user = `${USERS}/${ada.userId}`
    expectStatus(await patch(t, user, await currentEtag(t, user), [{ op: 'replace', path: '/roleId', value: await roleId(t, 'read-only') }]), 200)
    expectError(await asSession(t, session, { method: 'POST', url: '/payments/v2/counterparties', body: {} }), 403, 'forbidden')
    expect((await asSession(t, session, { method: 'GET', url: SESSION })).json<SessionJson>().role.name).toBe('read-only')
    expectStatus(await remove(t, user, await currentEtag(t, user)), 204)
    expectError(await reads(session), 401, 'unauthorized')
  })
})

describe("a user's sessions", () => {
  it('ended ones are kept 30 days, then deleted at the next sign-in', async () => {
    const ada = await person(t, 'admin')
    const old = await signIn(t, ada)
    const recent = await signIn(t, ada)
    await setSession(old.body.id, { expires_at: minutesAgo(31 * 24 * 60) })
    await t.db.database.db.updateTable('sessions').set({ revoked_at: minutesAgo(29 * 24 * 60) }).where('id', '=', recent.body.id).execute()
    await signIn(t, ada)
    expect(await sessionRow(t, old.body.id)).toBeUndefined()
    expect(await sessionRow(t, recent.body.id)).toBeDefined()
  })

  it('are listed without tokens and can be ended one by one', async () => {
    const ada = await person(t, 'admin')
    const first = await signIn(t, ada)
    const second = await signIn(t, ada, { remoteAddress: '203.0.113.9' })
    const list = await t.request({ method: 'GET', url: `${USERS}/${ada.userId}/sessions` })
    expectStatus(list, 200)
    const items = list.json<{ items: Array<Record<string, unknown>> }>().items
    expect(items.map((item) => item.id)).toEqual([first.body.id, second.body.id])
    expect(items[1]).toEqual({
      id: second.body.id,
      userId: ada.userId,
      secondFactor: false,
      userAgent: 'session-test',
      address: '203.0.113.9',
      created: second.body.created,
      lastSeen: second.body.lastSeen,
      expires: second.body.expires,
      idleExpires: second.body.idleExpires,
    })
    expect(list.body).not.toContain(first.token)

    expectStatus(await t.request({ method: 'DELETE', url: `${USERS}/${ada.userId}/sessions/${first.body.id}` }), 204)
    expectError(await reads(first), 401, 'unauthorized')
    expectStatus(await reads(second), 200)
    expectError(await t.request({ method: 'DELETE', url: `${USERS}/${ada.userId}/sessions/${first.body.id}` }), 410, 'gone')
    const after = (await t.request({ method: 'GET', url: `${USERS}/${ada.userId}/sessions` })).json<{ items: Array<{ id: string }> }>()
    expect(after.items.map((item) => item.id)).toEqual([second.body.id])
  })

  it("only an Owner ends an Owner's sessions; a session of another organization is not found", async () => {
    const boss = await person(t, 'owner')
    const session = await signIn(t, boss)
    const admin = await t.newKey('admin')
    const url = `${USERS}/${boss.userId}/sessions/${session.body.id}`
    expectError(await t.request({ method: 'DELETE', url, as: admin }), 403, 'forbidden')
    const stranger = await t.newOrganization()
    expectError(await t.request({ method: 'DELETE', url, as: stranger }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${USERS}/${boss.userId}/sessions`, as: stranger }), 404, 'not_found')
    expectStatus(await reads(session), 200)
  })
})

describe('passwords', () => {
  it('changes the password with the current one; other sessions end, this one stays', async () => {
    const ada = await person(t, 'admin')
    const here = await signIn(t, ada)
    const elsewhere = await signIn(t, ada)
    const change = (body: Record<string, string>) => asSession(t, here, { method: 'POST', url: CHANGE_PASSWORD, body })
    expectError(await change({ currentPassword: 'not my password', newPassword: 'seven quiet herons by the canal' }), 403, 'forbidden')
    expectError(await change({ currentPassword: ada.password, newPassword: 'password1234' }), 400, 'invalid_request', 'newPassword')
    expectError(await change({ currentPassword: ada.password, newPassword: 'too short' }), 400, 'invalid_request', 'newPassword')
    expectStatus(await change({ currentPassword: ada.password, newPassword: 'seven quiet herons by the canal' }), 204)
    expectStatus(await reads(here), 200)
    expectError(await reads(elsewhere), 401, 'unauthorized')
    expectError(await signInRequest(t, ada.email, { password: ada.password }), 401, 'unauthorized')
    await signIn(t, { email: ada.email, password: 'seven quiet herons by the canal' })
    const event = await t.db.database.db.selectFrom('events').selectAll().where('entity_id', '=', ada.userId).where('name', '=', 'PASSWORD_SET').orderBy('sequence', 'desc').executeTakeFirst()
    expect(event).toMatchObject({ originator: ada.userId, message: 'Password set' })
    expect(event!.entity).not.toContain('herons')
  })

  it('changes the password with an Idempotency-Key, as the dashboard sends it: 204, and 204 again on a replay', async () => {
    // A 204 has no result to serialize: the key stores the empty answer (a regression of CommandContext.asSent).
    const grace = await person(t, 'admin')
    const here = await signIn(t, grace)
    const body = { currentPassword: grace.password, newPassword: 'seven quiet herons by the canal' }
    const change = () => asSession(t, here, { method: 'POST', url: CHANGE_PASSWORD, body, headers: { 'idempotency-key': `password-change-${grace.userId}` } })
    const first = await change()
    expectStatus(first, 204)
    expect(first.body).toBe('')
    const replay = await change()
    expectStatus(replay, 204)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    await signIn(t, { email: grace.email, password: body.newPassword })
  })

  it('a one-time password signs in once for nothing but choosing a new one', async () => {
    const organization = await createSandboxOrganization(t.db.database, 'First start', { ownerSignIn: true })
    const { email, oneTimePassword } = organization.signIn!
    expect(email).toBe('owner@example.com')
    const session = await signIn(t, { email, password: oneTimePassword }, { organizationId: organization.organizationId })
    expect(session.body).toMatchObject({ passwordChangeRequired: true, role: { name: 'owner', owner: true } })
    const refused = expectError(await reads(session), 403, 'forbidden')
    expect(refused.message).toContain('POST /iam/v2/session/password:change')
    expectStatus(await asSession(t, session, { method: 'GET', url: SESSION }), 200)
    const change = await asSession(t, session, {
      method: 'POST',
      url: CHANGE_PASSWORD,
      body: { currentPassword: oneTimePassword, newPassword: 'a fresh start at the harbour' },
    })
    expectStatus(change, 204)
    expectStatus(await reads(session), 200)
    expect((await asSession(t, session, { method: 'GET', url: SESSION })).json<SessionJson>().passwordChangeRequired).toBe(false)
    expectError(await signInRequest(t, email, { password: oneTimePassword, organizationId: organization.organizationId }), 401, 'unauthorized')
  })
})
