import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { counterpartyBody } from '../support/fixtures.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'
import { basicAuth } from '../support/test-app.js'
import { isSigned, startReceiver, type Receiver } from './receiver.js'

/**
 * kill -9 during delivery loses nothing: a server process is killed while its deliveries are in
 * flight (the receiver holds them unanswered) and others are still queued; a second process on
 * the same database delivers every event once the first one's leases lapse.
 */

const LEASE_MS = 1_500
const EVENTS_CREATED = 12

interface KassaProcess {
  child: ChildProcess
  url: string
}

function startKassa(databaseUrl: string): Promise<KassaProcess> {
  const child = fork(fileURLToPath(new URL('./kassa-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATABASE_URL: databaseUrl, WEBHOOK_LEASE_MS: String(LEASE_MS), WEBHOOK_TIMEOUT_MS: '1000' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`Kassa exited with ${code} before listening`)))
    child.once('message', (message: { port: number }) => resolve({ child, url: `http://127.0.0.1:${message.port}` }))
  })
}

function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill(signal)
  })
}

async function post(kassa: KassaProcess, owner: Credentials, path: string, body: unknown): Promise<{ id: string; keys?: Array<{ signingKey: string }> }> {
  const response = await fetch(`${kassa.url}${path}`, {
    method: 'POST',
    headers: { authorization: basicAuth(owner), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBe(201)
  return (await response.json()) as { id: string; keys?: Array<{ signingKey: string }> }
}

let db: TestDatabase
let receiver: Receiver
const processes: ChildProcess[] = []

beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(async () => {
  for (const child of processes) await killed(child, 'SIGKILL')
  await receiver?.close()
  await db.destroy()
})

describe('webhook delivery survives kill -9', () => {
  it('delivers every event at least once after the process delivering them is killed', async () => {
    const owner = await createSandboxOrganization(db.database, 'Crash test')
    let acknowledging = false
    const acknowledged = new Set<string>()
    receiver = await startReceiver((request) => {
      if (!acknowledging) return 'hang'
      acknowledged.add(`${request.json.event.entityId}/${request.json.event.id}`)
      return 200
    })

    const first = await startKassa(db.url)
    processes.push(first.child)
    const webhook = await post(first, owner, '/v1/webhooks', { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }, { resource: 'external_accounts', apiVersion: 2 }] })
    for (let i = 0; i < EVENTS_CREATED / 2; i++) await post(first, owner, '/payments/v2/counterparties', counterpartyBody({ legalName: `Crash ${i}` }))

    // Deliveries are in flight (the receiver holds them) and queued behind them: kill -9 now.
    await receiver.waitFor((r) => r.length >= 4, 30_000)
    await killed(first.child, 'SIGKILL')
    const inFlightAtKill = receiver.received.length
    expect(acknowledged.size).toBe(0)

    const events = await db.database.db
      .selectFrom('events')
      .select(['entity_id', 'sequence'])
      .where('organization_id', '=', owner.organizationId)
      .where('entity_type', 'in', ['counterparties', 'external_accounts'])
      .execute()
    expect(events).toHaveLength(EVENTS_CREATED)
    const before = await db.database.db.selectFrom('webhook_deliveries').select(['status', 'locked_until']).execute()
    expect(before).toHaveLength(EVENTS_CREATED)
    expect(before.every((d) => d.status === 'PENDING')).toBe(true)
    expect(before.filter((d) => d.locked_until !== null).length).toBeGreaterThanOrEqual(inFlightAtKill)
    expect(before.some((d) => d.locked_until === null)).toBe(true)

    acknowledging = true
    const second = await startKassa(db.url)
    processes.push(second.child)
    const everyEvent = events.map((event) => `${event.entity_id}/${event.sequence}`)
    await receiver.waitFor(() => everyEvent.every((key) => acknowledged.has(key)), 60_000)

    const keys = webhook.keys!.map((key) => key.signingKey)
    expect(await Promise.all(receiver.received.map((request) => isSigned(request, keys)))).not.toContain(false)
    // A clean stop lets the worker record the outcomes of its last attempts.
    await new Promise<void>((resolve) => {
      second.child.once('exit', () => resolve())
      second.child.send('stop')
    })
    const after = await db.database.db.selectFrom('webhook_deliveries').select(['status']).where('webhook_id', '=', webhook.id).execute()
    expect(after.map((d) => d.status)).toEqual(Array(EVENTS_CREATED).fill('DELIVERED'))
  }, 150_000) // two server processes start, each compiling the app through tsx: slow on a loaded machine
})
