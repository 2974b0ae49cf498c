import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import { countTransaction, expectFoldedCreate, wrapQueries } from '../support/pg-round-trips.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { testBackend } from '../support/test-database.js'

/**
 * issue 14: on PostgreSQL a create's transaction makes a small, fixed number of round trips, its hot statements
 * prepared by name (counted by support/pg-round-trips.ts). Counted is the connection of the create's transaction, and
 * nothing else is sent for the create: its key is looked up in the transaction, not by a read of its own before it.
 * Today's 2: BEGIN, the key's advisory lock and its row, sent ahead of every read of the create — the parties (source, organization, external account locked, its
 * counterparty), the bank's business date (connection type, sandbox account, sandbox bank), approval chains, Owner
 * role and webhooks; then the payment, its step, its event and the key's answer, sent without waiting
 * (answeredWithNext), with COMMIT. It was 10 before these were folded.
 */
const TRANSACTION_ROUND_TRIPS = 2

describe.skipIf(testBackend() !== 'postgres')('credit transfer create on PostgreSQL: round trips', () => {
  let t: TestApp
  let url: string
  let body: (n: number) => string
  let queries: { unwrap(): void } | undefined

  beforeAll(async () => {
    // No payment worker: only the request's own queries go to the database while counting.
    t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    const address = t.app.server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening on TCP')
    url = `http://127.0.0.1:${address.port}/payments/v2/credit-transfers`
    const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json()
    const counterparty = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json()
    body = (n) =>
      JSON.stringify({
        amount: { currency: 'EUR', value: 100 + n },
        date: new Date().toISOString().slice(0, 10),
        scheme: 'SCT',
        source: { type: 'ACCOUNT', id: accounts.items[0].id },
        destination: { type: 'EXTERNAL_ACCOUNT', id: counterparty.accounts[0].id },
        reference: `Invoice ${n}`,
      })
    queries = wrapQueries()
  })
  afterAll(async () => {
    queries?.unwrap()
    await t?.close()
  })

  async function create(n: number) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: basicAuth(t.owner), 'content-type': 'application/json', 'idempotency-key': `round-trips-${n}` },
      body: body(n),
    })
    return { status: response.status, json: (await response.json()) as { id: string; status: string } }
  }

  it(`stores a credit transfer with an Idempotency-Key in a transaction of at most ${TRANSACTION_ROUND_TRIPS} round trips, its writes by named statements`, async () => {
    // The first create of a connection prepares its statements; measured is the steady state.
    for (let n = 0; n < 12; n += 1) expect((await create(n)).status).toBe(201)
    const counted = await countTransaction('payments', () => create(100))
    expect(counted.result.status).toBe(201)
    expectFoldedCreate(counted, TRANSACTION_ROUND_TRIPS, ['payments', 'payment_approval_steps', 'events'])
    // The answer is the one stored: the same payment again on a replay.
    const replayed = await create(100)
    expect(replayed.json.id).toBe(counted.result.json.id)
  })
})
