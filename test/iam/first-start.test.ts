import { tmpdir } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiApp } from '../../src/http/api-app.js'
import { serve } from '../../src/server.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'
import { expectError, expectStatus } from './iam-helpers.js'
import { asSession, CHANGE_PASSWORD, SESSION, signIn, signInRequest, type SessionJson } from './session-helpers.js'

/** `kassa serve` on an empty database, in this process, with what it prints to standard output captured. */
let database: TestDatabase
let app: ApiApp
let close: () => Promise<void>
let printed = ''

beforeAll(async () => {
  database = await createTestDatabase()
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => {
    printed += String(chunk)
    return true
  }) as typeof process.stdout.write
  try {
    ;({ app, close } = (await serve({
      host: '127.0.0.1',
      port: 0,
      databaseUrl: database.url,
      rateLimitPerMinute: 1_000,
      failedAuthenticationsPerMinute: 1_000,
      maintenance: false,
      logLevel: 'silent',
      webhookAllowLoopback: false,
      sandboxPaceMilliseconds: 60_000,
      sqliteSynchronous: 'NORMAL',
      bankFilesDir: tmpdir(),
      workers: 1,
      databaseConnections: 10,
      trustProxy: [],
    }))!)
  } finally {
    process.stdout.write = write
  }
})
afterAll(async () => {
  await close?.()
  await database?.destroy()
})

describe('the first start', () => {
  it("prints the sandbox Owner's sign-in beside the key; the one-time password is stored only hashed, works once, and must be changed", async () => {
    const email = /email:\s+(\S+)/.exec(printed)?.[1]
    const password = /password:\s+(\S+)/.exec(printed)?.[1]
    expect(email, printed).toBe('owner@example.com')
    expect(password, printed).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/)
    expect(printed).toContain('accessKey:')
    expect(printed).toMatch(/at:\s+http:\/\/[^/]+\/dashboard\n/)
    const stored = await database.database.db.selectFrom('user_passwords').selectAll().execute()
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ change_required: 1, password_hash: expect.stringMatching(/^\$scrypt\$/) })
    expect(JSON.stringify(stored)).not.toContain(password)

    const t = { app }
    const first = await signIn(t, { email: email!, password: password! })
    expect(first.body).toMatchObject({ passwordChangeRequired: true, role: { name: 'owner', owner: true }, user: { name: 'Sandbox Owner' } })
    expectError(await asSession(t, first, { method: 'GET', url: '/payments/v2/credit-transfers' }), 403, 'forbidden')
    expectStatus(await asSession(t, first, { method: 'POST', url: CHANGE_PASSWORD, body: { currentPassword: password, newPassword: 'my own sandbox password' } }), 204)
    expect((await asSession(t, first, { method: 'GET', url: SESSION })).json<SessionJson>().passwordChangeRequired).toBe(false)
    expectStatus(await asSession(t, first, { method: 'GET', url: '/payments/v2/credit-transfers' }), 200)
    expectError(await signInRequest(t, email!, { password: password! }), 401, 'unauthorized')
    await signIn(t, { email: email!, password: 'my own sandbox password' })
  })
})
