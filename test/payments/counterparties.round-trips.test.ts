import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody, IBANS } from '../support/fixtures.js'
import { countTransaction, expectFoldedCreate, wrapQueries } from '../support/pg-round-trips.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { testBackend } from '../support/test-database.js'

/**
 * issue 14: a counterparty create on PostgreSQL in as few round trips as a payment's (payment-creates.round-trips):
 * BEGIN, the key's advisory lock and row, and the organization's live webhooks, sent together; then the counterparty,
 * its accounts, their CREATED events and their webhook deliveries with the key's answer, sent without waiting
 * (answeredWithNext), with COMMIT. Before they were folded each statement was a round trip: 16 and more with two
 * accounts and a webhook.
 */
const TRANSACTION_ROUND_TRIPS = 2

describe.skipIf(testBackend() !== 'postgres')('counterparty create on PostgreSQL: round trips', () => {
  let t: TestApp
  let url: string
  let queries: { unwrap(): void } | undefined

  beforeAll(async () => {
    // No payment or delivery worker: only the request's own queries go to the database while counting.
    t = await startTestApp({ paymentWorkerIntervalMilliseconds: false, webhookAllowLoopback: true, webhooks: { startWorker: false } })
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    const address = t.app.server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening on TCP')
    url = `http://127.0.0.1:${address.port}/payments/v2/counterparties`
    // A webhook that wants every counterparty and account event: each create's events also enqueue their deliveries.
    const filter = [{ resource: 'counterparties', apiVersion: 2 }, { resource: 'external_accounts', apiVersion: 2 }]
    const webhook = await t.request({ method: 'POST', url: '/v1/webhooks', body: { url: 'http://127.0.0.1:9/kassa', filter } })
    expect(webhook.statusCode, webhook.body).toBe(201)
    queries = wrapQueries()
  })
  afterAll(async () => {
    queries?.unwrap()
    await t?.close()
  })

  async function create(n: number) {
    const body = counterpartyBody({
      legalName: `Supplier ${n}`,
      accounts: [
        { market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }] },
        { market: 'FR', identifiers: [{ market: 'FR', type: 'IBAN', number: IBANS.fr }] },
      ],
    })
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: basicAuth(t.owner), 'content-type': 'application/json', 'idempotency-key': `counterparty-trips-${n}` },
      body: JSON.stringify(body),
    })
    return { status: response.status, json: (await response.json()) as { id: string; accounts: Array<{ id: string }> } }
  }

  it(`stores a counterparty with two accounts and an Idempotency-Key in a transaction of at most ${TRANSACTION_ROUND_TRIPS} round trips, its writes by named statements`, async () => {
    // The first create of a connection prepares its statements; measured is the steady state.
    for (let n = 0; n < 12; n += 1) expect((await create(n)).status).toBe(201)
    const counted = await countTransaction('counterparties', () => create(100))
    const { result: created, ofTransaction, trace } = counted
    expect(created.status).toBe(201)
    expectFoldedCreate(counted, TRANSACTION_ROUND_TRIPS, ['counterparties', 'external_accounts', 'events', 'webhook_deliveries'])
    // Three CREATED events (the counterparty, its two accounts), each with a delivery to the webhook.
    for (const table of ['events', 'webhook_deliveries']) {
      expect(ofTransaction.filter((query) => query.text.startsWith(`insert into "${table}"`)), trace).toHaveLength(3)
    }
    const events = await t.request({ method: 'GET', url: `/payments/v2/counterparties/${created.json.id}/events` })
    expect(events.json().items.map((event: { type: string }) => event.type)).toEqual(['CREATED'])
    // The answer is the one stored: the same counterparty again on a replay.
    const replayed = await create(100)
    expect(replayed.json.id).toBe(created.json.id)
  })
})
