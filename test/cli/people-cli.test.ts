import { Command } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerPeopleCommands } from '../../src/cli/people-commands.js'
import { organizationSettings } from '../../src/iam/index.js'
import { totpCode } from '../../src/iam/totp/totp.js'
import { expectError } from '../iam/iam-helpers.js'
import { asSession, SESSION, signIn, signInRequest } from '../iam/session-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

/** Runs `kassa …` against the test database with `stdin` as standard input; resolves with what it printed. */
async function kassa(stdin: string, ...args: string[]): Promise<string> {
  let output = ''
  const program = new Command('kassa').exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
  const orgs = program.command('orgs')
  registerPeopleCommands(program, orgs, { withDatabase: (work) => work(t.db.database), write: (text) => (output += text), readStdin: async () => stdin })
  await program.parseAsync(['node', 'kassa', ...args])
  return output
}

describe('kassa users', () => {
  it('create: a person with a role and the piped password, printed as JSON; they can sign in', async () => {
    const org = t.owner.organizationId
    const printed = JSON.parse(
      await kassa('violet kettle drums at noon\n', 'users', 'create', '--org', org, '--name', 'Grace Hopper', '--email', 'Grace@Example.com', '--role', 'admin', '--password-stdin', '--json'),
    )
    expect(printed).toEqual({ id: expect.any(String), organizationId: org, type: 'HUMAN', name: 'Grace Hopper', email: 'grace@example.com', role: 'admin' })
    const session = await signIn(t, { email: 'grace@example.com', password: 'violet kettle drums at noon' })
    expect(session.body).toMatchObject({ user: { id: printed.id }, role: { name: 'admin' }, passwordChangeRequired: false })
    const stored = await t.db.database.db.selectFrom('user_passwords').select('password_hash').where('user_id', '=', printed.id).executeTakeFirstOrThrow()
    expect(stored.password_hash).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/)
  })

  it('create: refuses a weak password, an unknown role, a taken email and an unknown organization, saying why', async () => {
    const org = t.owner.organizationId
    const create = (password: string, email: string, role = 'read-only', organization = org) =>
      kassa(password, 'users', 'create', '--org', organization, '--name', 'Someone', '--email', email, '--role', role, '--password-stdin')
    await expect(create('password', 'weak@example.com')).rejects.toThrow('at least 12 characters')
    await expect(create('iloveyou1234', 'common@example.com')).rejects.toThrow('most common passwords')
    await expect(create('violet kettle drums at noon', 'role@example.com', 'auditor')).rejects.toThrow('the built-in roles are owner, admin, read-only')
    await create('violet kettle drums at noon', 'taken@example.com')
    await expect(create('violet kettle drums at noon', 'TAKEN@example.com')).rejects.toThrow('already has a user with the email taken@example.com')
    await expect(create('violet kettle drums at noon', 'x@example.com', 'admin', '01978a3c-0000-7000-8000-00000000dead')).rejects.toThrow('No organization')
    await expect(kassa('violet kettle drums at noon', 'users', 'create', '--org', org, '--name', 'No stdin flag', '--email', 'n@example.com', '--role', 'admin')).rejects.toThrow(/password-stdin/)
  })

  it("set-password: replaces a person's password and ends their sessions", async () => {
    const org = t.owner.organizationId
    await kassa('first long password here', 'users', 'create', '--org', org, '--name', 'Reset Me', '--email', 'reset@example.com', '--role', 'admin', '--password-stdin')
    const before = await signIn(t, { email: 'reset@example.com', password: 'first long password here' })
    expect(await kassa('second long password here\r\n', 'users', 'set-password', '--org', org, '--email', 'Reset@example.com', '--password-stdin')).toBe(
      'Password set for reset@example.com; their sessions have ended\n',
    )
    expectError(await asSession(t, before, { method: 'GET', url: SESSION }), 401, 'unauthorized')
    expectError(await signInRequest(t, 'reset@example.com', { password: 'first long password here' }), 401, 'unauthorized')
    await signIn(t, { email: 'reset@example.com', password: 'second long password here' })
    await expect(kassa('second long password here', 'users', 'set-password', '--org', org, '--email', 'nobody@example.com', '--password-stdin')).rejects.toThrow('no person')
  })
})

describe('kassa users reset-totp', () => {
  it('disables TOTP for a person who lost their app: their sessions end and the password alone signs in', async () => {
    const org = t.owner.organizationId
    await kassa('where did my phone go', 'users', 'create', '--org', org, '--name', 'Lost Phone', '--email', 'lost@example.com', '--role', 'admin', '--password-stdin')
    const who = { email: 'lost@example.com', password: 'where did my phone go' }
    const session = await signIn(t, who)
    const enrolled = await asSession(t, session, { method: 'POST', url: '/iam/v2/session/totp:enroll', body: { password: who.password } })
    const { secret } = enrolled.json<{ secret: string }>()
    await asSession(t, session, { method: 'POST', url: '/iam/v2/session/totp:confirm', body: { code: totpCode(secret, new Date()) } })
    expectError(await signInRequest(t, who.email, { password: who.password }), 401, 'unauthorized')
    expect(await kassa('', 'users', 'reset-totp', '--org', org, '--email', 'Lost@example.com')).toBe('TOTP disabled for lost@example.com; their sessions have ended\n')
    expectError(await asSession(t, session, { method: 'GET', url: SESSION }), 401, 'unauthorized')
    expect((await signIn(t, who)).body.totpEnabled).toBe(false)
    await expect(kassa('', 'users', 'reset-totp', '--org', org, '--email', 'lost@example.com')).rejects.toThrow('has no TOTP to reset')
  })
})

describe('kassa orgs update', () => {
  it('turns the TOTP requirement for approvals on and off', async () => {
    const org = t.owner.organizationId
    expect(await kassa('', 'orgs', 'update', '--org', org, '--approvals-require-totp', 'true')).toBe('approvalsRequireTotp: true\n')
    expect(await organizationSettings.approvalsRequireSecondFactor(t.db.database.db, org)).toBe(true)
    expect(await kassa('', 'orgs', 'update', '--org', org, '--approvals-require-totp', 'false')).toBe('approvalsRequireTotp: false\n')
    expect(await organizationSettings.approvalsRequireSecondFactor(t.db.database.db, org)).toBe(false)
    await expect(kassa('', 'orgs', 'update', '--org', org, '--approvals-require-totp', 'yes')).rejects.toThrow('must be true or false')
    await expect(kassa('', 'orgs', 'update', '--org', '01978a3c-0000-7000-8000-00000000dead', '--approvals-require-totp', 'true')).rejects.toThrow('No organization')
  })
})
