import pg from 'pg'
import { expect } from 'vitest'

/**
 * issue 14: the round trips of a request's transaction on PostgreSQL, counted on node-postgres' real client — wrapped
 * while counting, not replaced: a round trip starts whenever a query is sent to a connection with no query in flight;
 * queries sent while others are in flight are pipelined onto the same trip.
 */
export interface Sent {
  client: object
  text: string
  name?: string
  /** Sent with nothing in flight on its connection: the start of a round trip. */
  startsTrip: boolean
}

/** A query as the driver sends it: SQL text with its values, or a named statement's query object (a Submittable). */
type QueryArgument = string | { text: string; name?: string; submit?: unknown; callback?: (...answer: unknown[]) => void }

const original = pg.Client.prototype.query
let counting: Sent[] | undefined
const inFlight = new WeakMap<object, number>()

function countingQuery(this: pg.Client, ...args: unknown[]) {
  const config = args[0] as QueryArgument
  const pending = inFlight.get(this) ?? 0
  const text = typeof config === 'string' ? config : config.text
  counting?.push({ client: this, text, ...(typeof config !== 'string' && config.name ? { name: config.name } : {}), startsTrip: pending === 0 })
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

/** Wraps the client's query (every connection's in-flight count kept from then on); `unwrap` puts it back. */
export function wrapQueries(): { unwrap(): void } {
  pg.Client.prototype.query = countingQuery as typeof original
  return { unwrap: () => void (pg.Client.prototype.query = original) }
}

/** What a request's transaction sent: from its BEGIN on the connection that sent `firstInsert`, to its end. */
export interface CountedTransaction {
  ofTransaction: Sent[]
  /** Every other query sent meanwhile, but for the rate limit's sync (every 250 ms, on a pool connection of its own:
   * http/rate-limits/database-store.ts), which no request waits for. */
  besides: string[]
  roundTrips: number
  /** One line a query, → where a round trip starts. */
  trace: string
}

/** The queries sent while `work` runs, read as the transaction that inserted into the table `firstInsert` names; `work`'s result beside them. */
export async function countTransaction<T>(firstInsert: string, work: () => Promise<T>): Promise<CountedTransaction & { result: T }> {
  const sent: Sent[] = []
  counting = sent
  let result: T
  try {
    result = await work()
  } finally {
    counting = undefined
  }
  const transaction = sent.find((query) => query.text.startsWith(`insert into "${firstInsert}"`))?.client
  const onConnection = sent.filter((query) => query.client === transaction)
  const ofTransaction = onConnection.slice(onConnection.findIndex((query) => query.text === 'begin'))
  return {
    result,
    ofTransaction,
    besides: sent.filter((query) => query.client !== transaction && !/"rate_limit_hits"/.test(query.text)).map((query) => query.text.slice(0, 90)),
    roundTrips: ofTransaction.filter((query) => query.startsTrip).length,
    trace: ofTransaction.map((query) => `${query.startsTrip ? '→ ' : '  '}${query.name ? `[${query.name}] ` : ''}${query.text.slice(0, 90)}`).join('\n'),
  }
}

/**
 * The counted transaction of a create: it ends in COMMIT, nothing else was sent for it (its key is looked up in the
 * transaction: route config idempotency 'transaction'), it made at most `maxRoundTrips`, and it inserted into each of
 * `tables` only by named (prepared) statements.
 */
export function expectFoldedCreate(counted: CountedTransaction, maxRoundTrips: number, tables: readonly string[]): void {
  const { ofTransaction, besides, roundTrips, trace } = counted
  expect(ofTransaction.at(-1)?.text, trace).toBe('commit')
  expect(besides).toEqual([])
  expect(roundTrips, trace).toBeLessThanOrEqual(maxRoundTrips)
  for (const table of tables) {
    const inserts = ofTransaction.filter((query) => query.text.startsWith(`insert into "${table}"`))
    expect(inserts.length, `insert into ${table}\n${trace}`).toBeGreaterThan(0)
    for (const insert of inserts) expect(insert.name, `insert into ${table}\n${trace}`).toMatch(/^kassa_/)
  }
}
