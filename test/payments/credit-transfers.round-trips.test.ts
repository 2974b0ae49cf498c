import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { testBackend } from '../support/test-database.js'

/**
 * issue 14: on PostgreSQL a create's transaction makes a small, fixed number of round trips, its hot statements
 * prepared by name. node-postgres' real client is wrapped to count, not replaced: a round trip starts whenever a query
 * is sent to a connection with no query in flight; queries sent while others are in flight are pipelined onto the same
 * trip. Counted is the connection of the create's transaction, and nothing else is sent for the create: its key is
 * looked up in the transaction, not by a read of its own before it. Today's 2: BEGIN, the key's advisory lock and its
 * row, sent ahead of every read of the create — the parties (source, organization, external account locked, its
 * counterparty), the bank's business date (connection type, sandbox account, sandbox bank), approval chains, Owner
 * role and webhooks; then the payment, its step, its event and the key's answer, sent without waiting
 * (answeredWithNext), with COMMIT. It was 10 before these were folded.
 */
const TRANSACTION_ROUND_TRIPS = 2

interface Sent {
  client: object
  text: string
  name?: string
  /** Sent with nothing in flight on its connection: the start of a round trip. */
  startsTrip: boolean
}

const original = pg.Client.prototype.query
let counting = false
const sent: Sent[] = []
const inFlight = new WeakMap<object, number>()

/** A query as the driver sends it: SQL text with its values, or a named statement's query object (a Submittable). */
type QueryArgument = string | { text: string; name?: string; submit?: unknown; callback?: (...answer: unknown[]) => void }

function countingQuery(this: pg.Client, ...args: unknown[]) {
  if (!counting) return (original as (...a: unknown[]) => unknown).apply(this, args)
  const config = args[0] as QueryArgument
  const pending = inFlight.get(this) ?? 0
  const text = typeof config === 'string' ? config : config.text
  sent.push({ client: this, text, ...(typeof config !== 'string' && config.name ? { name: config.name } : {}), startsTrip: pending === 0 })
  inFlight.set(this, pending + 1)
  const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1)
  if (typeof config !== 'string' && config.submit !== undefined) {
    // node-postgres answers a Submittable through its callback, and returns the object itself.
    const { callback } = config
    config.callback = (...answer: unknown[]) => {
      done()
      callback?.(...answer)
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args)
  }
  const answer = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args)
  answer.then(done, done)
  return answer
}

describe.skipIf(testBackend() !== 'postgres')('credit transfer create on PostgreSQL: round trips', () => {
  let t: TestApp
  let url: string
  let body: (n: number) => string

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
    pg.Client.prototype.query = countingQuery as typeof original
  })
  afterAll(async () => {
    pg.Client.prototype.query = original
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
    sent.length = 0
    counting = true
    const created = await create(100)
    counting = false
    expect(created.status).toBe(201)
    const transaction = sent.find((query) => query.text.startsWith('insert into "payments"'))?.client
    const onConnection = sent.filter((query) => query.client === transaction)
    const ofTransaction = onConnection.slice(onConnection.findIndex((query) => query.text === 'begin'))
    const trace = ofTransaction.map((query) => `${query.startsTrip ? '→ ' : '  '}${query.name ? `[${query.name}] ` : ''}${query.text.slice(0, 90)}`).join('\n')
    expect(ofTransaction.at(-1)?.text, trace).toBe('commit')
    // The key is looked up only in the transaction (route config idempotency 'transaction'): nothing else was sent
    // but, should its timer fire meanwhile, the rate limit's sync (every 250 ms on a pool connection of its own:
    // http/rate-limits/database-store.ts), which no request waits for.
    const besides = sent.filter((query) => query.client !== transaction && !/"rate_limit_hits"/.test(query.text))
    expect(besides.map((query) => query.text.slice(0, 90))).toEqual([])
    expect(ofTransaction.filter((query) => query.startsTrip).length, trace).toBeLessThanOrEqual(TRANSACTION_ROUND_TRIPS)
    for (const table of ['payments', 'payment_approval_steps', 'events']) {
      const insert = ofTransaction.find((query) => query.text.startsWith(`insert into "${table}"`))
      expect(insert?.name, `insert into ${table}\n${trace}`).toMatch(/^kassa_/)
    }
    // The answer is the one stored: the same payment again on a replay.
    const replayed = await create(100)
    expect(replayed.json.id).toBe(created.json.id)
  })
})
