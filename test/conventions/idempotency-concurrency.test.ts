import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/db/database.js'
import type { ApiApp } from '../../src/http/api-app.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'
import { testBackend } from '../support/test-database.js'
import { COUNTERPARTIES, countCounterparties, createCounterparty, expectError, seenFetch, type SeenResponse, serverOn } from './expectations.js'

/**
 * Parallel requests with one Idempotency-Key over real sockets, so they truly overlap in the
 * server: exactly one runs, every other one gets its replay or a 425 — on one server process and
 * on two processes sharing the database.
 */
const PARALLEL = 8

let t: TestApp
let base: string
/** A second server on the same database with its own connections, as another process would be. */
let second: { app: ApiApp; database: Database; base: string }

async function listen(app: ApiApp): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 })
}

beforeAll(async () => {
  t = await startTestApp()
  base = await listen(t.app)
  const database = openDatabase(t.db.url)
  const app = await serverOn(database)
  second = { app, database, base: await listen(app) }
})
afterAll(async () => {
  await second.app.close()
  await second.database.close()
  await t.close()
})

let keySequence = 0
function newKey(): string {
  keySequence += 1
  return `parallel-${keySequence}-${Date.now()}`
}

async function send(
  server: string,
  method: 'POST' | 'PATCH',
  path: string,
  options: { key: string; body?: unknown; headers?: Record<string, string> },
): Promise<SeenResponse> {
  const response = await fetch(`${server}${path}`, {
    method,
    headers: {
      authorization: basicAuth(t.owner),
      'idempotency-key': options.key,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  return seenFetch(response)
}

/** Exactly one response ran the request; the others are replays of it (same status and body) or 425s. */
function expectOneWinner(responses: SeenResponse[], status: number): SeenResponse {
  const fresh = responses.filter((response) => response.headers['idempotent-replayed'] === undefined && response.status !== 425)
  expect(fresh.map((response) => response.status)).toEqual([status])
  const winner = fresh[0]!
  for (const response of responses) {
    if (response === winner) continue
    if (response.status === 425) {
      expectError(response, 425, 'idempotency_key_in_use')
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0)
    } else {
      expect(response.headers['idempotent-replayed']).toBe('true')
      expect(response.status).toBe(winner.status)
      expect(response.body).toBe(winner.body)
    }
  }
  return winner
}

describe('parallel duplicate Idempotency-Keys on one server', () => {
  it('creates exactly one counterparty; the others get its replay or 425', async () => {
    const key = newKey()
    const body = counterpartyBody({ legalName: 'Parallel GmbH' })
    const before = await countCounterparties(t)
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => send(base, 'POST', COUNTERPARTIES, { key, body })))
    const winner = expectOneWinner(responses, 201)
    expect(await countCounterparties(t)).toBe(before + 1)
    const retry = await send(base, 'POST', COUNTERPARTIES, { key, body })
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(JSON.parse(retry.body).id).toBe(JSON.parse(winner.body).id)
  })

  it('answers 425 to the duplicates that arrive while the first still runs', async () => {
    const key = newKey()
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () => send(base, 'POST', '/v1/idempotency-test?sleep=400', { key })),
    )
    const winner = expectOneWinner(responses, 200)
    // On a loaded machine a straggler may arrive after the first has finished and get the replay instead.
    expect(responses.filter((response) => response.status === 425).length).toBeGreaterThan(0)
    const replay = await send(base, 'POST', '/v1/idempotency-test?sleep=400', { key })
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.body).toBe(winner.body)
  })

  it('runs one of several different bodies under one key; the others get 422 or 425', async () => {
    const key = newKey()
    const before = await countCounterparties(t)
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, index) =>
        send(base, 'POST', COUNTERPARTIES, { key, body: counterpartyBody({ legalName: `Variant ${index}` }) }),
      ),
    )
    const created = responses.filter((response) => response.status === 201)
    expect(created).toHaveLength(1)
    expect(created[0]!.headers['idempotent-replayed']).toBeUndefined()
    for (const response of responses.filter((candidate) => candidate.status !== 201)) {
      expect([422, 425]).toContain(response.status)
      expectError(response, response.status, response.status === 422 ? 'idempotency_key_reused' : 'idempotency_key_in_use')
    }
    expect(await countCounterparties(t)).toBe(before + 1)
  })

  it('applies one of several parallel PATCHes with one key, never a 412', async () => {
    const counterparty = await createCounterparty(t)
    const key = newKey()
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        send(base, 'PATCH', `${COUNTERPARTIES}/${counterparty.id}`, {
          key,
          body: [{ op: 'replace', path: '/legalName', value: 'Patched in parallel' }],
          headers: { 'if-match': counterparty.etag },
        }),
      ),
    )
    const winner = expectOneWinner(responses, 200)
    expect(JSON.parse(winner.body).version).toBe(2)
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })
    expect(read.json()).toMatchObject({ legalName: 'Patched in parallel', version: 2 })
  })

  it('creates one counterparty per key for parallel requests with different keys', async () => {
    const before = await countCounterparties(t)
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () => send(base, 'POST', COUNTERPARTIES, { key: newKey(), body: counterpartyBody() })),
    )
    expect(responses.map((response) => response.status)).toEqual(Array(PARALLEL).fill(201))
    expect(new Set(responses.map((response) => JSON.parse(response.body).id)).size).toBe(PARALLEL)
    expect(await countCounterparties(t)).toBe(before + PARALLEL)
  })
})

describe('parallel duplicate Idempotency-Keys across two server processes on one database', () => {
  it('creates exactly one counterparty; the others get its replay or 425', async () => {
    const key = newKey()
    const body = counterpartyBody({ legalName: 'Two Servers GmbH' })
    const before = await countCounterparties(t)
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, index) => send(index % 2 === 0 ? base : second.base, 'POST', COUNTERPARTIES, { key, body })),
    )
    expectOneWinner(responses, 201)
    expect(await countCounterparties(t)).toBe(before + 1)
  })

  it('replays on one server what the other one stored', async () => {
    const key = newKey()
    const first = await send(base, 'POST', '/v1/idempotency-test?status=201', { key })
    expect(first.status).toBe(201)
    const elsewhere = await send(second.base, 'POST', '/v1/idempotency-test?status=201', { key })
    expect(elsewhere.headers['idempotent-replayed']).toBe('true')
    expect(elsewhere.body).toBe(first.body)
  })

  it('answers 425 on one server while the other still runs the request', async () => {
    const key = newKey()
    const running = send(base, 'POST', '/v1/idempotency-test?sleep=500', { key })
    const claimed = () => t.db.database.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).executeTakeFirst()
    while (!(await claimed())) await sleep(5)
    const early = await send(second.base, 'POST', '/v1/idempotency-test?sleep=500', { key })
    expectError(early, 425, 'idempotency_key_in_use')
    expect((await running).status).toBe(200)
  })
})

/**
 * Another process's request with the key of `scope`, midway through its transaction: PostgreSQL's advisory lock on
 * the key, held until `release()`; `holder` settles once its transaction has ended.
 */
async function holdKeyElsewhere(scope: string): Promise<{ release: () => void; holder: Promise<void> }> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let locked!: () => void
  const isLocked = new Promise<void>((resolve) => (locked = resolve))
  const holder = t.db.database.transaction(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${scope}, 0))`.execute(trx)
    locked()
    await released
  })
  await isLocked
  return { release, holder }
}

describe('one write transaction per request (issue 14)', () => {
  it('writes no key row before the work commits, and the row with its answer after', async () => {
    const key = newKey()
    const keyRow = () => t.db.database.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).execute()
    const created = await send(base, 'POST', COUNTERPARTIES, { key, body: counterpartyBody({ legalName: 'One Transaction GmbH' }) })
    expect(created.status).toBe(201)
    const [row] = await keyRow()
    expect(row).toMatchObject({ state: 'COMPLETED', response_status: 201, response_body: created.body })
  })

  it.runIf(testBackend() === 'postgres')('answers 425 while another process holds the key in its transaction (PostgreSQL advisory lock), then runs it', async () => {
    const key = newKey()
    const body = counterpartyBody({ legalName: 'Advisory Lock GmbH' })
    const scope = JSON.stringify([t.owner.organizationId, 'POST', COUNTERPARTIES, key])
    const before = await countCounterparties(t)
    const { release, holder } = await holdKeyElsewhere(scope)
    expectError(await send(second.base, 'POST', COUNTERPARTIES, { key, body }), 425, 'idempotency_key_in_use')
    expect(await countCounterparties(t)).toBe(before)
    release()
    await holder
    expect((await send(second.base, 'POST', COUNTERPARTIES, { key, body })).status).toBe(201)
    expect(await countCounterparties(t)).toBe(before + 1)
  })

  it.runIf(testBackend() === 'postgres')('answers 425, not the work’s own refusal, while another process holds the key — the key’s lock goes out with the work’s reads', async () => {
    const key = newKey()
    await createCounterparty(t, { externalId: 'held-key-taken' })
    // The work refuses this one with 409 (the externalId is taken) — but only the key's holder may answer it.
    const body = counterpartyBody({ legalName: 'Held Key GmbH', externalId: 'held-key-taken' })
    const scope = JSON.stringify([t.owner.organizationId, 'POST', COUNTERPARTIES, key])
    const { release, holder } = await holdKeyElsewhere(scope)
    expectError(await send(second.base, 'POST', COUNTERPARTIES, { key, body }), 425, 'idempotency_key_in_use')
    release()
    await holder
    const refused = await send(second.base, 'POST', COUNTERPARTIES, { key, body })
    expectError(refused, 409, 'external_id_taken')
    // Stored: the same refusal again, replayed.
    const replayed = await send(base, 'POST', COUNTERPARTIES, { key, body })
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(replayed.body).toBe(refused.body)
  })
})
