import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError, expectStatus } from './iam-helpers.js'
import { HOST, PASSWORD, person, sessionCount, sessionRow, signIn, signInRequest } from './session-helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

async function failures(subject: string) {
  return t.db.database.db.selectFrom('sign_in_failures').selectAll().where('subject', '=', subject).executeTakeFirst()
}

async function lockoutEvents(userId: string) {
  return t.db.database.db.selectFrom('events').selectAll().where('entity_id', '=', userId).where('name', '=', 'SIGN_IN_LOCKED').execute()
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}

describe('sign-in', () => {
  it('starts a session: the user, role, permissions and CSRF token; only a digest of the token is stored', async () => {
    const ada = await person(t, 'admin')
    const session = await signIn(t, { email: ada.email.toUpperCase(), password: ada.password })
    expect(session.body).toMatchObject({
      organizationId: ada.organizationId,
      user: { id: ada.userId, email: ada.email, type: 'HUMAN' },
      role: { name: 'admin', owner: false },
      secondFactor: false,
      totpEnabled: false,
      passwordChangeRequired: false,
      approvalsRequireSecondFactor: false,
    })
    expect(session.body.permissions).toContain('credit_transfers:create')
    expect(session.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Date.parse(session.body.expires) - Date.parse(session.body.created)).toBe(12 * 60 * 60 * 1000)
    expect(Date.parse(session.body.idleExpires) - Date.parse(session.body.lastSeen)).toBe(30 * 60 * 1000)
    const row = await sessionRow(t, session.body.id)
    expect(row).toMatchObject({ user_id: ada.userId, address: '127.0.0.1', user_agent: 'session-test', revoked_at: null, second_factor: 0 })
    expect(row!.token_digest).toBe(createHash('sha256').update(session.token).digest('hex'))
    expect(JSON.stringify(row)).not.toContain(session.token)
  })

  it('sets an HttpOnly, SameSite=Strict cookie for the whole site, Secure unless it came over plain http to a loopback address', async () => {
    const ada = await person(t, 'read-only')
    const local = await signIn(t, ada)
    expect(local.setCookie).toBe(`kassa_session=${local.token}; Path=/; HttpOnly; SameSite=Strict`)
    for (const loopback of ['::1', '::ffff:127.0.0.1', '127.0.0.2']) {
      expect((await signIn(t, ada, { remoteAddress: loopback })).setCookie).not.toContain('Secure')
    }
    const remote = await signIn(t, ada, { remoteAddress: '203.0.113.7' })
    expect(remote.setCookie).toBe(`kassa_session=${remote.token}; Path=/; HttpOnly; SameSite=Strict; Secure`)
    expect((await sessionRow(t, remote.body.id))!.address).toBe('203.0.113.7')
  })

  it('answers a wrong password and an unknown email alike — same 401, no session — in about the same time', async () => {
    const ada = await person(t, 'admin')
    const wrong = await signInRequest(t, ada.email, { password: 'not the password at all' })
    const unknown = await signInRequest(t, `nobody.${Date.now()}@example.com`, { password: PASSWORD })
    const wrongBody = expectError(wrong, 401, 'unauthorized')
    const unknownBody = expectError(unknown, 401, 'unauthorized')
    expect(wrongBody.message).toBe('Wrong email or password')
    expect(unknownBody.message).toBe(wrongBody.message)
    expect(wrong.headers['set-cookie']).toBeUndefined()
    expect(await sessionCount(t, ada.userId)).toBe(0)
    // Both verify one scrypt hash: neither answer is much faster than the other (without the hash of nobody an unknown
    // email would answer in about 1% of the time). The fastest of three, interleaved, is robust to a busy machine.
    const known: number[] = []
    const nobody: number[] = []
    for (let round = 0; round < 3; round += 1) {
      known.push(await timed(() => signInRequest(t, ada.email, { password: 'still not the password', remoteAddress: '198.51.100.200' })))
      nobody.push(await timed(() => signInRequest(t, `nobody.${round}.${Date.now()}@example.com`, { password: 'still not the password', remoteAddress: '198.51.100.200' })))
    }
    const ratio = Math.min(...nobody) / Math.min(...known)
    expect(ratio).toBeGreaterThan(0.3)
    expect(ratio).toBeLessThan(3)
  })

  it('refuses a sign-in from another site (a foreign Origin), and validates the body', async () => {
    const ada = await person(t, 'admin')
    expectError(await signInRequest(t, ada.email, { password: ada.password, headers: { origin: 'https://evil.example' } }), 403, 'forbidden')
    expectStatus(await signInRequest(t, ada.email, { password: ada.password, headers: { origin: `http://${HOST}` } }), 201)
    expectError(await signInRequest(t, 'not-an-email', { password: 'x' }), 400, 'invalid_request', 'email')
    expectError(await signInRequest(t, ada.email, { password: ada.password, totp: '12ab56' }), 400, 'invalid_request', 'totp')
  })

  it('needs organizationId only when the email and password sign in to several organizations', async () => {
    const other = await t.newOrganization()
    const email = `twice.${Date.now()}@example.com`
    const here = await person(t, 'admin', { email })
    const there = await person(t, 'read-only', { email, organizationId: other.organizationId })
    expectError(await signInRequest(t, email, { password: PASSWORD }), 400, 'invalid_request', 'organizationId')
    expect((await signIn(t, here, { organizationId: other.organizationId })).body.user.id).toBe(there.userId)
    expect((await signIn(t, here, { organizationId: here.organizationId })).body.user.id).toBe(here.userId)
  })
})

describe('lockout', () => {
  it('locks an account after 5 failures in a row, for 30 s then doubling; logged as an event; the right password waits too', async () => {
    const ada = await person(t, 'admin')
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expectError(await signInRequest(t, ada.email, { password: `wrong guess ${attempt}`, remoteAddress: `198.51.100.${attempt}` }), 401, 'unauthorized')
    }
    const locked = await signInRequest(t, ada.email, { password: ada.password })
    expectError(locked, 429, 'rate_limited')
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(25)
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(30)
    expect(await sessionCount(t, ada.userId)).toBe(0)
    const [event, ...more] = await lockoutEvents(ada.userId)
    expect(more).toEqual([])
    expect(event).toMatchObject({ entity_type: 'users', type: 'UPDATED', originator: 'KASSA' })
    expect(event!.message).toMatch(/^Sign-in locked until \S+ after 5 failed attempts for this email$/)

    // The lockout is in the database: another server process (a second app on the same database) refuses too.
    const second = await buildApp({ config: { rateLimitPerMinute: 1000, maintenance: false, logLevel: 'silent' }, database: t.db.database, paymentWorkerIntervalMilliseconds: false })
    try {
      const elsewhere = await second.inject({ method: 'POST', url: '/iam/v2/session', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: ada.email, password: ada.password }) })
      expectError(elsewhere, 429, 'rate_limited')
    } finally {
      await second.close()
    }

    // Once it has passed, the next failure locks for twice as long.
    const subject = `account:${ada.email}`
    await t.db.database.db.updateTable('sign_in_failures').set({ locked_until: new Date(Date.now() - 1000).toISOString() }).where('subject', '=', subject).execute()
    expectError(await signInRequest(t, ada.email, { password: 'sixth wrong guess' }), 401, 'unauthorized')
    const sixth = await failures(subject)
    expect(sixth!.failures).toBe(6)
    expect(Date.parse(sixth!.locked_until!) - Date.parse(sixth!.last_failure_at)).toBe(60_000)
    expect(await lockoutEvents(ada.userId)).toHaveLength(2)

    // A success after the lockout forgets the account's failures.
    await t.db.database.db.updateTable('sign_in_failures').set({ locked_until: new Date(Date.now() - 1000).toISOString() }).where('subject', '=', subject).execute()
    await signIn(t, ada)
    expect(await failures(subject)).toBeUndefined()
  })

  it('forgets failures after an hour without one: the count starts again, and forgotten rows are deleted', async () => {
    const email = `forgetful.${Date.now()}@example.com`
    const stale = `account:stale.${Date.now()}@example.com`
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString()
    expectError(await signInRequest(t, email, { password: 'first guess here' }), 401, 'unauthorized')
    await t.db.database.db.insertInto('sign_in_failures').values({ subject: stale, failures: 3, last_failure_at: twoHoursAgo, locked_until: null }).execute()
    await t.db.database.db.updateTable('sign_in_failures').set({ failures: 4, last_failure_at: twoHoursAgo }).where('subject', '=', `account:${email}`).execute()
    expectError(await signInRequest(t, email, { password: 'second guess here' }), 401, 'unauthorized')
    expect((await failures(`account:${email}`))!.failures).toBe(1)
    expect(await failures(stale)).toBeUndefined()
  })

  it('locks an unknown email exactly like a known one, so a lockout tells nothing', async () => {
    const email = `ghost.${Date.now()}@example.com`
    for (let attempt = 1; attempt <= 5; attempt += 1) expectError(await signInRequest(t, email, { password: `guess ${attempt}` }), 401, 'unauthorized')
    expectError(await signInRequest(t, email, { password: 'guess 6' }), 429, 'rate_limited')
  })

  it('locks an address after 20 failures across emails; other addresses still sign in', async () => {
    const address = '192.0.2.77'
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      expectError(await signInRequest(t, `spray${attempt}.${Date.now()}@example.com`, { password: PASSWORD, remoteAddress: address }), 401, 'unauthorized')
    }
    const ada = await person(t, 'admin')
    expectError(await signInRequest(t, ada.email, { password: ada.password, remoteAddress: address }), 429, 'rate_limited')
    await signIn(t, ada, { remoteAddress: '192.0.2.78' })
    expect((await failures(`address:${address}`))!.failures).toBe(20)
  })
})

describe('the guard of sign-in', () => {
  it('answers 503 in maintenance and rate limits per address, though it takes no credentials', async () => {
    const strict = await startTestApp({ rateLimitPerMinute: 2, paymentWorkerIntervalMilliseconds: false })
    const closed = await startTestApp({ maintenance: true, paymentWorkerIntervalMilliseconds: false })
    try {
      const ada = await person(strict, 'admin')
      expectStatus(await signInRequest(strict, ada.email, { password: ada.password }), 201)
      const second = await signInRequest(strict, ada.email, { password: ada.password })
      expect(second.headers['ratelimit-remaining']).toBe('0')
      const third = expectError(await signInRequest(strict, ada.email, { password: ada.password }), 429, 'rate_limited')
      expect(third.message).toBe('More than 2 requests in the past minute')
      expectStatus(await signInRequest(strict, ada.email, { password: ada.password, remoteAddress: '203.0.113.50' }), 201)
      expectError(await signInRequest(closed, 'anyone@example.com', { password: PASSWORD }), 503, 'maintenance')
    } finally {
      await strict.close()
      await closed.close()
    }
  })
})
