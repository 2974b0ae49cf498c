import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { createAccessKey } from '../../src/iam/index.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { counterpartyBody } from '../support/fixtures.js'
import { TOKEN_PATH } from '../support/oauth2.js'
import { basicAuth } from '../support/test-app.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'

/**
 * Issue 13: tokens live in the database, not in a process. Two server processes on one database: a token
 * one issues, the other accepts; a key revoked through one stops the other's tokens within its grant cache's
 * lifetime; failed token requests count toward one lockout whichever process they reach.
 */

const AUTH_CACHE_MS = 300

interface KassaProcess {
  child: ChildProcess
  url: string
}

function startKassa(databaseUrl: string): Promise<KassaProcess> {
  const child = fork(fileURLToPath(new URL('./kassa-server-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATABASE_URL: databaseUrl, AUTH_CACHE_MS: String(AUTH_CACHE_MS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`Kassa exited with ${code} before listening`)))
    child.once('message', (message: { port: number }) => resolve({ child, url: `http://127.0.0.1:${message.port}` }))
  })
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.send('stop')
  })
}

async function tokenFrom(kassa: KassaProcess, credentials: Pick<Credentials, 'accessKey' | 'secret'>): Promise<Response> {
  return fetch(`${kassa.url}${TOKEN_PATH}`, {
    method: 'POST',
    headers: { authorization: basicAuth(credentials), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  })
}

async function issued(kassa: KassaProcess, credentials: Pick<Credentials, 'accessKey' | 'secret'>): Promise<string> {
  const response = await tokenFrom(kassa, credentials)
  expect(response.status, await response.clone().text()).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

function counterparties(kassa: KassaProcess, token: string): Promise<Response> {
  return fetch(`${kassa.url}/payments/v2/counterparties`, { headers: { authorization: `Bearer ${token}` } })
}

let db: TestDatabase
let a: KassaProcess
let b: KassaProcess
let owner: Credentials
beforeAll(async () => {
  db = await createTestDatabase()
  owner = await createSandboxOrganization(db.database, 'Two processes')
  ;[a, b] = await Promise.all([startKassa(db.url), startKassa(db.url)])
}, 60_000)
afterAll(async () => {
  await Promise.all([a, b].filter(Boolean).map((kassa) => stopped(kassa.child)))
  await db.destroy()
})

describe('OAuth2 tokens across server processes on one database', () => {
  it('accepts in one process the token another issued, both ways, for reads and writes', async () => {
    const fromA = await issued(a, owner)
    const fromB = await issued(b, owner)
    expect((await counterparties(b, fromA)).status).toBe(200)
    expect((await counterparties(a, fromB)).status).toBe(200)
    const created = await fetch(`${b.url}/payments/v2/counterparties`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fromA}`, 'content-type': 'application/json', 'idempotency-key': 'two-processes-1' },
      body: JSON.stringify(counterpartyBody()),
    })
    expect(created.status, await created.clone().text()).toBe(201)
    const replayed = await fetch(`${a.url}/payments/v2/counterparties`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fromB}`, 'content-type': 'application/json', 'idempotency-key': 'two-processes-1' },
      body: JSON.stringify(counterpartyBody()),
    })
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(((await replayed.json()) as { id: string }).id).toBe(((await created.json()) as { id: string }).id)
  })

  it("stops a revoked key's token in the other process within its grant cache's lifetime", async () => {
    const key = await createAccessKey(db.database, owner.organizationId, 'admin')
    const token = await issued(a, key)
    expect((await counterparties(b, token)).status).toBe(200)
    const [row] = await db.database.db.selectFrom('access_keys').select('id').where('access_key', '=', key.accessKey).execute()
    const revoked = await fetch(`${a.url}/iam/v2/users/${key.userId}/access-keys/${row!.id}`, { method: 'DELETE', headers: { authorization: basicAuth(owner) } })
    expect(revoked.status, await revoked.clone().text()).toBe(204)
    expect((await counterparties(a, token)).status).toBe(401)
    await new Promise((resolve) => setTimeout(resolve, AUTH_CACHE_MS + 100))
    const refused = await counterparties(b, token)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm="kassa", error="invalid_token"/)
    expect((await tokenFrom(b, key)).status).toBe(401)
  })

  it('counts failed token requests toward one lockout, whichever process they reach', async () => {
    const wrong = { ...owner, secret: 'wrong' }
    // The revoked key's refused token request above counted already.
    const counted = await db.database.db.selectFrom('sign_in_failures').select('failures').where('subject', 'like', 'address:%').executeTakeFirst()
    for (let attempt = (counted?.failures ?? 0) + 1; attempt <= 20; attempt += 1) {
      expect((await tokenFrom(attempt % 2 === 0 ? a : b, wrong)).status).toBe(401)
    }
    for (const kassa of [a, b]) {
      const locked = await tokenFrom(kassa, owner)
      expect(locked.status).toBe(429)
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    }
  })
})
