import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IBANS } from '../support/fixtures.js'
import { basicAuth } from '../support/test-app.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'
import { LEVEL, startKassaServe, type KassaServe } from './kassa-serve.js'

/**
 * Issue 14: background work is claimed without stepping on each other across processes. Two HTTP workers
 * (`kassa serve --workers 2`) on one database each run a payment worker at a quick sandbox pace; a few hundred
 * credit transfers are approved through both. Every payment reaches the bank exactly once, and neither process
 * logs an error: a payment the other process took is skipped quietly.
 */

const PAYMENTS = 300
/** Requests in flight at once while creating and approving. */
const CONCURRENCY = 8

let db: TestDatabase
let kassa: KassaServe
let base: string
let auth: string
beforeAll(async () => {
  db = await createTestDatabase()
  // Debug: each payment worker says which payments it took and which it skipped.
  kassa = await startKassaServe(db.url, 2, { KASSA_SANDBOX_PACE_MS: '20', KASSA_RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'debug' })
  base = `http://127.0.0.1:${kassa.port}`
  auth = basicAuth(kassa.owner)
}, 180_000)
afterAll(async () => {
  if (kassa?.child.exitCode === null) {
    kassa.child.kill('SIGTERM')
    await kassa.done
  }
  await db?.destroy()
})

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return JSON.parse(text) as T
}

/** Runs `work` for 0…count-1, `CONCURRENCY` at a time. */
async function inParallel(count: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++)
    }),
  )
}

describe('payments approved across two server processes on one database', () => {
  it('each reaches the bank exactly once, and no process logs an error', async () => {
    const accounts = await call<{ items: Array<{ id: string }> }>('GET', '/financial-data/v2/accounts?currency=EUR')
    const counterparty = await call<{ accounts: Array<{ id: string }> }>('POST', '/payments/v2/counterparties', {
      legalName: 'Nordlicht Consulting GmbH',
      partyType: 'COMPANY',
      accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }] }],
    })
    const ids: string[] = []
    await inParallel(PAYMENTS, async (index) => {
      const payment = await call<{ id: string; approvalSteps: Array<{ id: string }> }>('POST', '/payments/v2/credit-transfers', {
        // Whole euros: no amount ends in the minor units 04 the sandbox bank answers with AC04.
        amount: { currency: 'EUR', value: 100 * (1 + (index % 20)) },
        date: new Date().toISOString().slice(0, 10),
        scheme: 'SCT',
        source: { type: 'ACCOUNT', id: accounts.items[index % accounts.items.length]!.id },
        destination: { type: 'EXTERNAL_ACCOUNT', id: counterparty.accounts[0]!.id },
        reference: `Claims ${index}`,
      })
      ids.push(payment.id)
      await call('POST', `/payments/v2/credit-transfers/${payment.id}:approve`, { approvalStepId: payment.approvalSteps[0]!.id })
    })
    expect(ids).toHaveLength(PAYMENTS)

    // Until the bank has settled every one (or refused it for want of funds): a status only the bank gives.
    const deadline = Date.now() + 180_000
    let waiting: unknown[] = []
    do {
      await new Promise((resolve) => setTimeout(resolve, 500))
      waiting = await db.database.db.selectFrom('payments').select(['id', 'status']).where('status', 'not in', ['RECONCILED', 'FAILED']).execute()
    } while (waiting.length > 0 && Date.now() < deadline)
    expect(waiting).toEqual([])

    const instructions = await db.database.db
      .selectFrom('sandbox_instructions')
      .select(['payment_id', sql<number>`count(*)`.as('count')])
      .groupBy('payment_id')
      .execute()
    expect(instructions.map((row) => row.payment_id).sort()).toEqual([...ids].sort())
    expect(instructions.filter((row) => Number(row.count) !== 1)).toEqual([])
    const sent = await db.database.db
      .selectFrom('events')
      .select(['entity_id', sql<number>`count(*)`.as('count')])
      .where('name', '=', 'SENT_TO_BANK')
      .groupBy('entity_id')
      .execute()
    expect(sent).toHaveLength(PAYMENTS)
    expect(sent.filter((row) => Number(row.count) !== 1)).toEqual([])

    // Each payment was taken by one payment worker once, and both processes' workers took some.
    const taken = kassa.logs().filter((line) => line.msg === 'payment taken for submission')
    expect(taken.map((line) => line.paymentId).sort()).toEqual([...ids].sort())
    expect(new Set(taken.map((line) => line.pid)).size).toBe(2)
    // What the other process had taken was skipped quietly: nothing at error level from any process.
    const errors = kassa.logs().filter((line) => line.level >= LEVEL.error)
    expect(errors.map((line) => ({ pid: line.pid, msg: line.msg, err: (line.err as { message?: string } | undefined)?.message }))).toEqual([])
  }, 400_000)
})
