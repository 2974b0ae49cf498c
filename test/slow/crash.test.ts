import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { ledgerProblems } from '../financial-data/sandbox-helpers.js'
import { counterpartyBody } from '../support/fixtures.js'
import { startKassaProcess, stopped, type KassaProcess } from '../support/kassa-processes.js'
import { basicAuth } from '../support/test-app.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'
import { isSigned, startReceiver, type Receiver } from '../webhooks/receiver.js'
import { inPool, percentile, phaseClock, until } from './crash-helpers.js'
import { noCounts, runClients, task, type Counts, type Sender, type Task } from './crash-load.js'

/**
 * Issue 14, the crash proof: credit transfers created by many clients with Idempotency-Keys, a share of them
 * approved by a second user with keys of their own, while the server processes are SIGKILLed and restarted again
 * and again — on PostgreSQL two processes on one database, killed one or both at a time — and a share of the
 * answers is dropped on the way (the client never sees them and must retry). The sandbox bank executes the
 * approved payments and a webhook receiver, which sometimes fails or hangs, gets their events. Afterwards:
 * every key made exactly one payment or approval, every answer a client saw for a key was the same, no payment
 * was approved or booked twice, the sandbox ledger's balances agree with its transactions, every event reached
 * the receiver, and a key cut off by a crash completed within seconds of being retried — before issue 14 it
 * answered 425 for two minutes.
 */

const KEYS = 2_000
const CLIENTS = 16
const KILLS = 10
/** Every APPROVE_EVERY-th payment is approved. */
const APPROVE_EVERY = 4
/** On PostgreSQL the proof runs two server processes on the database; SQLite is one process's file. */
const PROCESSES = testBackend() === 'postgres' ? 2 : 1
/** Seconds within which a key cut off by a crash completes once tried again (the lease it replaced was 120 s). */
const RETRY_BOUND_SECONDS = 15
/** Statuses of an approved payment on its way through the bank. */
const IN_FLIGHT = ['APPROVED', 'PENDING_SUBMISSION', 'SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED']
const WEBHOOK_FILTER = [
  { resource: 'credit_transfers', apiVersion: 2 },
  { resource: 'transactions', apiVersion: 2 },
]

let db: TestDatabase
let owner: Credentials
let servers: KassaProcess[] = []
let receiver: Receiver | undefined

const start = (): Promise<KassaProcess> => startKassaProcess(db.url, { KASSA_SANDBOX_PACE_MS: '50' })

beforeAll(async () => {
  db = await createTestDatabase()
  owner = await createSandboxOrganization(db.database, 'Crash test')
})
afterAll(async () => {
  await Promise.all(servers.map((server) => stopped(server.child)))
  await receiver?.close()
  await db?.destroy()
})

/** A request the setup needs, on the first process; fails the test unless answered with `status`. */
async function call<T>(method: string, path: string, body?: unknown, as: Sender = owner, status = method === 'POST' ? 201 : 200): Promise<T> {
  const response = await fetch(`${servers[0]!.url}${path}`, {
    method,
    headers: { authorization: basicAuth(as), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  expect(response.status, `${method} ${path}: ${text}`).toBe(status)
  return JSON.parse(text) as T
}

/** A second user who may approve what the Owner creates, through a chain the Owner cannot complete alone. */
async function approver(): Promise<Sender> {
  const role = await call<{ id: string }>('POST', '/iam/v2/roles', { name: 'approver', permissions: ['credit_transfers:read', 'credit_transfers:approve'] })
  const user = await call<{ id: string }>('POST', '/iam/v2/users', { type: 'PROGRAMMATIC', name: 'Approver', roleId: role.id })
  await call('POST', '/iam/v2/approval-chains', { name: 'Four eyes', trigger: { currency: 'EUR' }, steps: [{ requiredRoleIds: [role.id] }] })
  return call<{ accessKey: string; secret: string }>('POST', `/iam/v2/users/${user.id}/access-keys`)
}

/** Which victims (indexes into the processes) round `round` kills: one, the other, both, in turn. */
function victims(round: number): number[] {
  if (PROCESSES === 1) return [0]
  return [[0], [1], [0, 1]][round % 3]!
}

describe(`kill -9 under load (${testBackend()}, ${PROCESSES} process${PROCESSES === 1 ? '' : 'es'})`, () => {
  it('loses no acknowledged create or approval, makes none twice, books each once, delivers every event, and locks no key after a crash', async () => {
    const phases = phaseClock()
    servers = await Promise.all(Array.from({ length: PROCESSES }, start))
    const source = (await call<{ items: Array<{ id: string }> }>('GET', '/financial-data/v2/accounts?currency=EUR')).items[0]!.id
    const destination = (await call<{ accounts: Array<{ id: string }> }>('POST', '/payments/v2/counterparties', counterpartyBody())).accounts[0]!.id
    const approverKey = await approver()
    const signedBy: string[] = []
    // Checked as each request arrives, as a receiver must: the signature's timestamp is only accepted for minutes.
    const signatureChecks: Array<Promise<boolean>> = []
    const acknowledged = new Map<string, number>()
    receiver = await startReceiver((request) => {
      signatureChecks.push(isSigned(request, signedBy))
      // A receiver having a bad time: one answer in ten a 500, one in fifty never comes (Kassa's attempt times out).
      const luck = Math.random()
      if (luck < 0.1) return 500
      if (luck < 0.12) return 'hang'
      const event = `${request.json.event.entityId}/${request.json.event.id}`
      acknowledged.set(event, (acknowledged.get(event) ?? 0) + 1)
      return 200
    })
    const webhook = await call<{ id: string; keys: Array<{ signingKey: string }> }>('POST', '/v1/webhooks', { url: receiver.url, filter: WEBHOOK_FILTER })
    signedBy.push(...webhook.keys.map((key) => key.signingKey))
    const seeded = new Set((await db.database.db.selectFrom('transactions').select('id').where('organization_id', '=', owner.organizationId).execute()).map((row) => row.id))

    const today = new Date().toISOString().slice(0, 10)
    const tasks: Task[] = []
    const queue: Task[] = []
    const approvals: Task[] = []
    const creates = Array.from({ length: KEYS }, (_, index) =>
      task({
        key: `crash-${index}`,
        path: '/payments/v2/credit-transfers',
        body: {
          amount: { currency: 'EUR', value: 1_000 + index },
          date: today,
          scheme: 'SCT',
          source: { type: 'ACCOUNT', id: source },
          destination: { type: 'EXTERNAL_ACCOUNT', id: destination },
          reference: `Crash test ${index}`,
        },
        as: owner,
        status: 201,
        // The approver approves every APPROVE_EVERY-th payment once its creator has seen it created.
        then:
          index % APPROVE_EVERY === 0
            ? (body) => {
                const payment = JSON.parse(body) as { id: string; approvalSteps: Array<{ id: string }> }
                const approval = task({
                  key: `approve-${index}`,
                  path: `/payments/v2/credit-transfers/${payment.id}:approve`,
                  body: { approvalStepId: payment.approvalSteps[0]!.id },
                  as: approverKey,
                  status: 202,
                })
                approvals.push(approval)
                tasks.push(approval)
                queue.push(approval)
              }
            : undefined,
      }),
    )
    tasks.push(...creates)

    // Each round releases its share of new keys, and kills one or both processes mid-flight; the clients go on
    // through the other process or wait for the restart. The load runs until every task has completed.
    const underLoad: Counts = noCounts()
    const running = runClients({ clients: CLIENTS, queue, servers: () => servers.map((server) => server.url), finished: () => tasks.every((t) => t.done), counts: underLoad })
    const completed = () => tasks.filter((t) => t.done).length
    let lastRestart = 0
    for (let round = 0; round < KILLS; round += 1) {
      // Kill once the round's work is well under way (a fresh process answers its first requests slowly), at a random moment.
      const before = completed()
      queue.push(...creates.slice((round * KEYS) / KILLS, ((round + 1) * KEYS) / KILLS))
      await until('the round to be under way', async () => completed() >= before + KEYS / KILLS / 2, 60_000, 10)
      await sleep(Math.random() * 100)
      await Promise.all(victims(round).map((index) => stopped(servers[index]!.child)))
      await Promise.all(
        victims(round).map(async (index) => {
          servers[index] = await start()
        }),
      )
      lastRestart = performance.now()
    }
    await running
    const afterLastRestart = (performance.now() - lastRestart) / 1000
    phases.end('setup, load, kills and restarts')
    // The kills did hit requests in flight.
    expect(underLoad.cutOff).toBeGreaterThan(0)

    // A key cut off by a crash completes within seconds of being tried again, not when a lease runs out.
    const latencies = tasks.flatMap((t) => (t.latency === undefined ? [] : [t.latency])).sort((a, b) => a - b)
    const slowest = latencies.at(-1)! / 1000

    // Every key once more: each answer is the one the client saw before, byte for byte, and none is a 425 (each key
    // is sent by one client at a time: a 425 now could only be a key still locked by a dead process).
    for (const t of tasks) t.done = false
    const replays: Counts = noCounts()
    await runClients({ clients: CLIENTS, queue: [...tasks], servers: () => servers.map((server) => server.url), finished: () => tasks.every((t) => t.done), counts: replays })
    phases.end('replay pass')
    expect(replays.status425).toBe(0)
    for (const t of tasks) expect(t.seen.size, t.key).toBe(1)

    console.log(
      `crash test (${testBackend()}, ${PROCESSES} process${PROCESSES === 1 ? '' : 'es'}): ${KILLS} kills cut off ${underLoad.cutOff} requests (${underLoad.refused} more refused while down), ` +
        `${underLoad.dropped} answers dropped, ${underLoad.status425} 425s; ${KEYS} creates and ${approvals.length} approvals done ` +
        `${afterLastRestart.toFixed(1)} s after the last restart; ${latencies.length} interrupted keys completed after being tried again ` +
        `in p50 ${(percentile(latencies, 0.5) / 1000).toFixed(2)} s, p99 ${(percentile(latencies, 0.99) / 1000).toFixed(2)} s, slowest ${slowest.toFixed(2)} s; ` +
        `replay pass: ${replays.status425} 425s`,
    )
    expect(slowest).toBeLessThan(RETRY_BOUND_SECONDS)

    // Every create made exactly one payment: the one every answer for its key named.
    const payments = await db.database.db
      .selectFrom('payments')
      .select(['id', 'reference', 'status', 'amount', 'attached_transactions'])
      .where('organization_id', '=', owner.organizationId)
      .execute()
    expect(payments).toHaveLength(KEYS)
    const byReference = new Map(payments.map((payment) => [payment.reference, payment.id]))
    creates.forEach((create, index) => expect(byReference.get(`Crash test ${index}`), create.key).toBe((JSON.parse([...create.seen][0]!) as { id: string }).id))
    const keyRows = await db.database.db.selectFrom('idempotency_keys').select(['key', 'state', 'response_status']).where('organization_id', '=', owner.organizationId).execute()
    const keyStates = (prefix: string) => keyRows.filter((row) => row.key.startsWith(prefix)).map((row) => `${row.state} ${row.response_status}`)
    expect(keyStates('crash-')).toEqual(creates.map(() => 'COMPLETED 201'))
    expect(keyStates('approve-')).toEqual(approvals.map(() => 'COMPLETED 202'))

    // Every approval key approved its payment, once: one FULLY_APPROVED event and one audit entry per payment.
    const approvedIds = approvals.map((approval) => (JSON.parse([...approval.seen][0]!) as { id: string; status: string }))
    expect(approvedIds.every((payment) => payment.status === 'APPROVED')).toBe(true)
    expect(approvals).toHaveLength(KEYS / APPROVE_EVERY)
    const fullyApproved = await db.database.db
      .selectFrom('events')
      .select('entity_id')
      .where('organization_id', '=', owner.organizationId)
      .where('entity_type', '=', 'credit_transfers')
      .where('name', '=', 'FULLY_APPROVED')
      .execute()
    expect(fullyApproved.map((row) => row.entity_id).sort()).toEqual(approvedIds.map((payment) => payment.id).sort())
    const audited = await db.database.db
      .selectFrom('audit_log_entries')
      .select('resource_id')
      .where('organization_id', '=', owner.organizationId)
      .where('action', '=', 'credit_transfers.approve')
      .execute()
    expect(audited.map((row) => row.resource_id).sort()).toEqual(approvedIds.map((payment) => payment.id).sort())

    // The bank executes every approved payment, each once; the unapproved ones wait.
    await until('the bank to settle every approved payment', async () => {
      const moving = await db.database.db.selectFrom('payments').select('id').where('organization_id', '=', owner.organizationId).where('status', 'in', IN_FLIGHT).execute()
      return moving.length === 0
    })
    phases.end('bank settling the rest')
    const settled = await db.database.db
      .selectFrom('payments')
      .select(['id', 'status', 'amount', 'attached_transactions'])
      .where('organization_id', '=', owner.organizationId)
      .where('status', '!=', 'CREATED')
      .execute()
    // The sandbox bank's scripted AC04 fails the amounts ending in 04 (docs/sandbox-bank.md); it executes the rest.
    const expectedStatus = (amount: number) => (amount % 100 === 4 ? 'FAILED' : 'RECONCILED')
    expect(settled.map((payment) => `${payment.id} ${payment.status}`).sort()).toEqual(
      approvedIds.map((approved) => `${approved.id} ${expectedStatus(payments.find((payment) => payment.id === approved.id)!.amount)}`).sort(),
    )
    const instructions = await db.database.db.selectFrom('sandbox_instructions').select('payment_id').where('organization_id', '=', owner.organizationId).execute()
    expect(instructions.map((row) => row.payment_id).sort()).toEqual(approvedIds.map((payment) => payment.id).sort())
    const booked = (
      await db.database.db.selectFrom('transactions').select(['id', 'amount']).where('organization_id', '=', owner.organizationId).execute()
    ).filter((transaction) => !seeded.has(transaction.id))
    const reconciled = settled.filter((payment) => payment.status === 'RECONCILED')
    const attached = reconciled.flatMap((payment) => (JSON.parse(payment.attached_transactions) as Array<{ id: string }>).map((transaction) => ({ id: transaction.id, amount: -payment.amount })))
    expect(attached).toHaveLength(reconciled.length)
    expect(booked.map((transaction) => `${transaction.id} ${Number(transaction.amount)}`).sort()).toEqual(attached.map((transaction) => `${transaction.id} ${transaction.amount}`).sort())

    // The sandbox ledger's invariant on every account and day: booked(d) = opening + Σ entries up to d, AVAILABLE = booked − reserved.
    expect(await ledgerProblems(db.database, owner.organizationId)).toEqual([])

    // Every event of the subscribed resources, as the events lists show them, reached the receiver (at least once).
    await until('every webhook delivery', async () => {
      const open = await db.database.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhook.id).where('status', '!=', 'DELIVERED').execute()
      return open.length === 0
    })
    phases.end('webhook deliveries finishing')
    const eventsOf = async (path: string) =>
      (await call<{ items: Array<{ id: number; entityId: string }> }>('GET', `${path}/events?limit=500`)).items.map((event) => `${event.entityId}/${event.id}`)
    const expected = [
      ...(await inPool(payments, 16, (payment) => eventsOf(`/payments/v2/credit-transfers/${payment.id}`))).flat(),
      ...(await inPool(attached, 16, (transaction) => eventsOf(`/financial-data/v2/transactions/${transaction.id}`))).flat(),
    ]
    phases.end('events lists read')
    const delivered = await db.database.db.selectFrom('webhook_deliveries').select(['entity_id', 'sequence']).where('webhook_id', '=', webhook.id).execute()
    expect(delivered.map((delivery) => `${delivery.entity_id}/${delivery.sequence}`).sort()).toEqual([...expected].sort())
    expect(expected.filter((event) => !acknowledged.has(event))).toEqual([])
    const receipts = [...acknowledged.values()].reduce((sum, count) => sum + count, 0)
    const signatures = await Promise.all(signatureChecks)
    expect(signatures).toHaveLength(receiver.received.length)
    expect(signatures).not.toContain(false)
    console.log(
      `crash test (${testBackend()}): ${settled.length} payments settled by the bank (${reconciled.length} booked); ${expected.length} events, ` +
        `${receiver.received.length} webhook requests, ${receipts} acknowledged, ${receipts - expected.length} duplicates; ${phases.summary()}`,
    )
  })
})
