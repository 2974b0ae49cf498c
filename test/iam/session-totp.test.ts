import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { organizationSettings } from '../../src/iam/index.js'
import { totpCode } from '../../src/iam/totp/totp.js'
import { counterpartyBody } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError, expectStatus } from './iam-helpers.js'
import { asSession, person, SESSION, signIn, signInRequest, type Person, type SessionJson, type SignedIn } from './session-helpers.js'

const ENROLL = '/iam/v2/session/totp:enroll'
const CONFIRM = '/iam/v2/session/totp:confirm'
const DISABLE = '/iam/v2/session/totp:disable'
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000)

let t: TestApp
let boss: Person
let secret: string
let enrolledSession: SignedIn
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  boss = await person(t, 'owner')
})
afterAll(() => t.close())

describe('TOTP', () => {
  it('enrolls an authenticator app: the password first, the secret shown once, enabled by a first code', async () => {
    enrolledSession = await signIn(t, boss)
    expectError(await asSession(t, enrolledSession, { method: 'POST', url: ENROLL, body: { password: 'not the password' } }), 403, 'forbidden')
    const enrolled = await asSession(t, enrolledSession, { method: 'POST', url: ENROLL, body: { password: boss.password } })
    expectStatus(enrolled, 201)
    const body = enrolled.json<{ secret: string; uri: string }>()
    secret = body.secret
    expect(body.uri).toBe(`otpauth://totp/Kassa:${encodeURIComponent(boss.email)}?issuer=Kassa&secret=${secret}&algorithm=SHA1&digits=6&period=30`)
    // Not enabled until confirmed: sign-in asks for no code yet.
    expect((await signIn(t, boss)).body.totpEnabled).toBe(false)
    const wrong = totpCode(secret, inSeconds(-120))
    expectError(await asSession(t, enrolledSession, { method: 'POST', url: CONFIRM, body: { code: wrong } }), 400, 'invalid_request', 'code')
    expectStatus(await asSession(t, enrolledSession, { method: 'POST', url: CONFIRM, body: { code: totpCode(secret, new Date()) } }), 204)
    const current = (await asSession(t, enrolledSession, { method: 'GET', url: SESSION })).json<SessionJson>()
    expect(current).toMatchObject({ totpEnabled: true, secondFactor: true })
    expectError(await asSession(t, enrolledSession, { method: 'POST', url: ENROLL, body: { password: boss.password } }), 409, 'conflict')
    expectError(await t.request({ method: 'POST', url: ENROLL, body: { password: boss.password } }), 404, 'not_found')
  })

  it('then sign-in needs a code: missing (named in details), wrong or replayed codes are refused', async () => {
    const missing = expectError(await signInRequest(t, boss.email, { password: boss.password }), 401, 'unauthorized')
    expect(missing.details).toEqual([{ code: 'totp_required', field: 'totp', error: 'is required: this account has TOTP enabled' }])
    expectError(await signInRequest(t, boss.email, { password: boss.password, totp: totpCode(secret, inSeconds(-300)) }), 401, 'unauthorized')
    const code = totpCode(secret, inSeconds(30))
    const session = await signIn(t, boss, { totp: code })
    expect(session.body).toMatchObject({ secondFactor: true, totpEnabled: true })
    expectError(await signInRequest(t, boss.email, { password: boss.password, totp: code }), 401, 'unauthorized')
    const failures = await t.db.database.db.selectFrom('sign_in_failures').selectAll().where('subject', '=', `account:${boss.email}`).executeTakeFirst()
    expect(failures?.failures).toBe(1)
  })
})

describe('approvals that need a second factor', () => {
  it('when the organization requires it, only a session signed in with a code approves', async () => {
    const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json<{ items: Array<{ id: string }> }>()
    const counterparty = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json<{ accounts: Array<{ id: string }> }>()
    const created = await t.request({
      method: 'POST',
      url: '/payments/v2/credit-transfers',
      body: {
        amount: { currency: 'EUR', value: 4_200 },
        date: new Date().toISOString().slice(0, 10),
        scheme: 'SCT',
        source: { type: 'ACCOUNT', id: accounts.items[0]!.id },
        destination: { type: 'EXTERNAL_ACCOUNT', id: counterparty.accounts[0]!.id },
        reference: 'Second factor',
      },
    })
    expectStatus(created, 201)
    const payment = created.json<{ id: string; approvalSteps: Array<{ id: string }> }>()
    const approve = { method: 'POST' as const, url: `/payments/v2/credit-transfers/${payment.id}:approve`, body: { approvalStepId: payment.approvalSteps[0]!.id } }
    const withoutCode = await signIn(t, await person(t, 'owner'))
    expect(withoutCode.body.approvalsRequireSecondFactor).toBe(false)

    await organizationSettings.setApprovalsRequireSecondFactor(t.db.database.db, t.owner.organizationId, true)
    expect((await asSession(t, withoutCode, { method: 'GET', url: SESSION })).json<SessionJson>().approvalsRequireSecondFactor).toBe(true)
    const byKey = expectError(await t.request(approve), 403, 'forbidden')
    expect(byKey.message).toContain('TOTP')
    expectError(await asSession(t, withoutCode, approve), 403, 'forbidden')
    const approved = await asSession(t, enrolledSession, approve)
    expectStatus(approved, 202)
    expect(approved.json()).toMatchObject({ status: 'APPROVED', approvalSteps: [{ status: 'APPROVED', approver: { id: boss.userId } }] })
  })
})

describe('disabling TOTP', () => {
  it('needs the password and a session signed in with a code', async () => {
    const other = await person(t, 'admin')
    const plain = await signIn(t, other)
    expectError(await asSession(t, plain, { method: 'POST', url: DISABLE, body: { password: other.password } }), 403, 'forbidden')
    expectError(await asSession(t, enrolledSession, { method: 'POST', url: DISABLE, body: { password: 'wrong password here' } }), 403, 'forbidden')
    expectStatus(await asSession(t, enrolledSession, { method: 'POST', url: DISABLE, body: { password: boss.password } }), 204)
    expect((await signIn(t, boss)).body).toMatchObject({ totpEnabled: false, secondFactor: false })
    const names = (await t.db.database.db.selectFrom('events').select('name').where('entity_id', '=', boss.userId).orderBy('sequence').execute()).map((row) => row.name)
    expect(names).toEqual(['CREATED', 'PASSWORD_SET', 'TOTP_ENABLED', 'TOTP_DISABLED'])
  })
})
