import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import { countTransaction, expectFoldedCreate, wrapQueries } from '../support/pg-round-trips.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { testBackend } from '../support/test-database.js'

/**
 * issue 14: on PostgreSQL a payment's create makes a small, fixed number of round trips, its hot statements prepared
 * by name (counted by support/pg-round-trips.ts). Counted is the connection of the create's transaction, and nothing
 * else is sent for the create: its key is looked up in the transaction, not by a read of its own before it.
 * Today's 2: BEGIN, the key's advisory lock and its row, sent ahead of every read of the create — the parties (own
 * account, organization, external account locked, its counterparty; a direct debit's mandate), the bank's business
 * date (connection type, sandbox account, sandbox bank), approval chains, Owner role and webhooks; then the payment,
 * its step, its event and the key's answer, sent without waiting (answeredWithNext), with COMMIT. A credit transfer
 * made 10 before these were folded; a direct debit 7 until 2026-12-03.
 */
const TRANSACTION_ROUND_TRIPS = 2

describe.skipIf(testBackend() !== 'postgres')('payment creates on PostgreSQL: round trips', () => {
  let t: TestApp
  let origin: string
  let accountId: string
  let externalAccountId: string
  let queries: { unwrap(): void } | undefined
  const today = new Date().toISOString().slice(0, 10)

  beforeAll(async () => {
    // No payment or delivery worker (its poll asks the database on a timer): only the request's own queries go to the
    // database while counting.
    t = await startTestApp({ paymentWorkerIntervalMilliseconds: false, webhooks: { startWorker: false } })
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    const address = t.app.server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening on TCP')
    origin = `http://127.0.0.1:${address.port}`
    accountId = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json().items[0].id
    externalAccountId = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json().accounts[0].id
    const mandate = { externalAccountId, scheme: 'SDD_CORE', creditorReference: 'DE98ZZZ09999999999', mandateReference: 'MANDATE-TRIPS', signatureDate: '2026-01-15' }
    expect((await t.request({ method: 'POST', url: '/payments/v2/mandates', body: mandate })).statusCode).toBe(201)
    queries = wrapQueries()
  })
  afterAll(async () => {
    queries?.unwrap()
    await t?.close()
  })

  const own = () => ({ type: 'ACCOUNT', id: accountId })
  const external = () => ({ type: 'EXTERNAL_ACCOUNT', id: externalAccountId })
  /** Each kind's n-th body: a credit transfer to the counterparty's account, a direct debit from it under its mandate. */
  const kinds = {
    'credit-transfers': { scheme: 'SCT', source: own, destination: external },
    'direct-debits': { scheme: 'SDD_CORE', source: external, destination: own },
  }
  const body = (kind: keyof typeof kinds, n: number) => {
    const { scheme, source, destination } = kinds[kind]
    return { amount: { currency: 'EUR', value: 100 + n }, date: today, scheme, source: source(), destination: destination(), reference: `Payment ${n}` }
  }

  async function create(kind: keyof typeof kinds, n: number) {
    const response = await fetch(`${origin}/payments/v2/${kind}`, {
      method: 'POST',
      headers: { authorization: basicAuth(t.owner), 'content-type': 'application/json', 'idempotency-key': `round-trips-${kind}-${n}` },
      body: JSON.stringify(body(kind, n)),
    })
    return { status: response.status, json: (await response.json()) as { id: string; status: string } }
  }

  for (const kind of Object.keys(kinds) as Array<keyof typeof kinds>) {
    it(`stores one of ${kind} with an Idempotency-Key in a transaction of at most ${TRANSACTION_ROUND_TRIPS} round trips, its writes by named statements`, async () => {
      // The first create of a connection prepares its statements; measured is the steady state.
      for (let n = 0; n < 12; n += 1) expect((await create(kind, n)).status).toBe(201)
      const counted = await countTransaction('payments', () => create(kind, 100))
      expect(counted.result.status).toBe(201)
      expectFoldedCreate(counted, TRANSACTION_ROUND_TRIPS, ['payments', 'payment_approval_steps', 'events'])
      // The answer is the one stored: the same payment again on a replay.
      const replayed = await create(kind, 100)
      expect(replayed.json.id).toBe(counted.result.json.id)
    })
  }
})
