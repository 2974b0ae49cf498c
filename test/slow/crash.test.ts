import { fork, type ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { counterpartyBody } from '../support/fixtures.js'
import { basicAuth } from '../support/test-app.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'

/**
 * Issue 14, the crash proof: credit transfers created by many clients with Idempotency-Keys while the server is
 * SIGKILLed and restarted again and again, a share of the answers dropped on the way (the client never sees them
 * and must retry). Afterwards every key made exactly one payment, every answer a client did see names that one,
 * and once the last server is up every key completes without a single 425 — a key in flight at a crash is not
 * locked (before issue 14 it answered 425 for two minutes).
 */

const KEYS = 2_000
const CLIENTS = 16
const KILLS = 10
/** Share of answers the "network" drops: the client saw nothing and retries. */
const DROPPED = 0.2

interface Kassa {
  child: ChildProcess
  url: string
}

function startKassa(databaseUrl: string): Promise<Kassa> {
  const child = fork(fileURLToPath(new URL('./crash-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`Kassa exited with ${code} before listening`)))
    child.once('message', (message: { port: number }) => resolve({ child, url: `http://127.0.0.1:${message.port}` }))
  })
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

let db: TestDatabase
let owner: Credentials
let current: Kassa | undefined
beforeAll(async () => {
  db = await createTestDatabase()
  owner = await createSandboxOrganization(db.database, 'Crash test')
})
afterAll(async () => {
  if (current) await killed(current.child)
  await db?.destroy()
})

interface KeyState {
  key: string
  body: unknown
  /** Payment ids in the answers the client saw (201 or replay): all must be the same one. */
  seen: Set<string>
  done: boolean
}

type Outcome = { kind: 'created'; id: string } | { kind: 'retry'; status?: number }

async function attempt(url: string, state: KeyState): Promise<Outcome> {
  try {
    const response = await fetch(`${url}/payments/v2/credit-transfers`, {
      method: 'POST',
      headers: { authorization: basicAuth(owner), 'content-type': 'application/json', 'idempotency-key': state.key },
      body: JSON.stringify(state.body),
      signal: AbortSignal.timeout(10_000),
    })
    const text = await response.text()
    if (response.status === 201) return { kind: 'created', id: (JSON.parse(text) as { id: string }).id }
    // 425 (the key in flight), 503 (shutting down): retry; anything else is a defect.
    if (response.status !== 425 && response.status !== 503) throw new Error(`unexpected ${response.status}: ${text}`)
    return { kind: 'retry', status: response.status }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('unexpected')) throw error
    return { kind: 'retry' }
  }
}

interface Counts {
  status425: number
  /** Requests that got no answer at all: in flight when the server died. */
  cutOff: number
}

/**
 * Clients send the keys not yet done until `stop` says so, each key by one client at a time; an answer dropped in
 * transit leaves its key to do.
 */
async function load(url: string, states: KeyState[], stop: () => boolean, counts: Counts): Promise<void> {
  const queue = states.filter((state) => !state.done)
  const client = async () => {
    while (!stop()) {
      const state = queue.shift()
      if (!state) return
      const outcome = await attempt(url, state)
      if (outcome.kind === 'retry') {
        if (outcome.status === 425) counts.status425 += 1
        if (outcome.status === undefined) counts.cutOff += 1
        queue.push(state)
        await sleep(5)
        continue
      }
      if (Math.random() < DROPPED) {
        queue.push(state)
        continue
      }
      state.seen.add(outcome.id)
      state.done = true
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, client))
}

describe(`kill -9 under load (${testBackend()})`, () => {
  it('loses no acknowledged create, makes none twice, and locks no key after a crash', async () => {
    current = await startKassa(db.url)
    const accounts = await (await fetch(`${current.url}/financial-data/v2/accounts?currency=EUR`, { headers: { authorization: basicAuth(owner) } })).json()
    const source = (accounts as { items: Array<{ id: string }> }).items[0]!.id
    const counterparty = await fetch(`${current.url}/payments/v2/counterparties`, {
      method: 'POST',
      headers: { authorization: basicAuth(owner), 'content-type': 'application/json' },
      body: JSON.stringify(counterpartyBody()),
    })
    const destination = ((await counterparty.json()) as { accounts: Array<{ id: string }> }).accounts[0]!.id
    const today = new Date().toISOString().slice(0, 10)
    const states: KeyState[] = Array.from({ length: KEYS }, (_, index) => ({
      key: `crash-${index}`,
      body: {
        amount: { currency: 'EUR', value: 1_000 + index },
        date: today,
        scheme: 'SCT',
        source: { type: 'ACCOUNT', id: source },
        destination: { type: 'EXTERNAL_ACCOUNT', id: destination },
        reference: `Crash test ${index}`,
      },
      seen: new Set<string>(),
      done: false,
    }))

    // Each round starts its share of new keys (and retries the earlier ones not done) and is killed mid-flight.
    const underLoad: Counts = { status425: 0, cutOff: 0 }
    for (let kill = 0; kill < KILLS; kill += 1) {
      const kassa = current
      let stopped = false
      const running = load(kassa.url, states.slice(0, ((kill + 1) * KEYS) / KILLS), () => stopped, underLoad)
      await sleep(150 + Math.random() * 250)
      await killed(kassa.child)
      stopped = true
      await running
      current = await startKassa(db.url)
    }
    // The kills did hit requests in flight.
    expect(underLoad.cutOff).toBeGreaterThan(0)

    // The last server: every key completes, the ones in flight at the last crash included, within seconds.
    const started = performance.now()
    const counts: Counts = { status425: 0, cutOff: 0 }
    const acknowledged = states.filter((state) => state.done).length
    for (const state of states) state.done = false
    await load(current.url, states, () => performance.now() - started > 60_000, counts)
    const seconds = (performance.now() - started) / 1000
    console.log(
      `crash test (${testBackend()}): ${KILLS} kills cut off ${underLoad.cutOff} requests; ${acknowledged} of ${KEYS} keys acknowledged before ` +
        `the last restart; final pass over all of them in ${seconds.toFixed(1)} s with ${counts.status425} 425s`,
    )
    expect(states.filter((state) => !state.done)).toEqual([])
    // Each key is sent by one client at a time: a 425 now could only be a key still locked by a dead process.
    expect(counts.status425).toBe(0)

    // Every answer a client saw for a key named the same payment, and the database holds exactly one per key.
    for (const state of states) expect(state.seen.size, state.key).toBe(1)
    const payments = await db.database.db.selectFrom('payments').select(['id', 'reference']).where('organization_id', '=', owner.organizationId).execute()
    expect(payments).toHaveLength(KEYS)
    const byReference = new Map(payments.map((payment) => [payment.reference, payment.id]))
    states.forEach((state, index) => expect(byReference.get(`Crash test ${index}`)).toBe([...state.seen][0]))
    const keyRows = await db.database.db.selectFrom('idempotency_keys').select(['key', 'state']).where('organization_id', '=', owner.organizationId).execute()
    expect(keyRows.filter((row) => row.key.startsWith('crash-')).map((row) => row.state)).toEqual(states.map(() => 'COMPLETED'))
  })
})
