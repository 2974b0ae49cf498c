import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import type { Credentials } from '../../src/iam/index.js'
import type { Database } from '../../src/db/database.js'
import type { ApiApp } from '../../src/http/api-app.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'
import { COUNTERPARTIES, countCounterparties, createCounterparty, expectError, UUID, serverOn } from './expectations.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

const TEST_ENDPOINT = '/v1/idempotency-test'
let keySequence = 0
/** A key no other test uses. */
function newKey(): string {
  keySequence += 1
  return `key-${keySequence}-${Date.now()}`
}

function echo(key: string | undefined, query = '', as?: Credentials) {
  return t.request({
    method: 'POST',
    url: `${TEST_ENDPOINT}${query}`,
    headers: key === undefined ? {} : { 'idempotency-key': key },
    ...(as ? { as } : {}),
  })
}

function createWithKey(key: string, body: unknown = counterpartyBody(), as?: Credentials) {
  return t.request({ method: 'POST', url: COUNTERPARTIES, body, headers: { 'idempotency-key': key }, ...(as ? { as } : {}) })
}

function expectFresh(response: LightMyRequestResponse, status = 200): void {
  expect(response.statusCode).toBe(status)
  expect(response.headers['idempotent-replayed']).toBeUndefined()
}

function expectReplayOf(replay: LightMyRequestResponse, original: LightMyRequestResponse): void {
  expect(replay.statusCode).toBe(original.statusCode)
  expect(replay.headers['idempotent-replayed']).toBe('true')
  expect(replay.body).toBe(original.body)
  expect(replay.headers['content-type']).toBe(original.headers['content-type'])
  expect(replay.headers['request-id']).toMatch(UUID)
  expect(replay.headers['request-id']).not.toBe(original.headers['request-id'])
}

async function keyRows(key: string) {
  return t.db.database.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).execute()
}

describe('POST /v1/idempotency-test', () => {
  it('echoes the key with a fresh UUID, and null without a key', async () => {
    const key = newKey()
    const withKey = await echo(key)
    expectFresh(withKey)
    expect(withKey.headers['content-type']).toMatch(/^application\/json/)
    expect(withKey.json()).toEqual({ idempotencyKey: key, uuid: expect.stringMatching(UUID) })
    const without = [await echo(undefined), await echo(undefined)]
    expect(without.map((response) => response.json().idempotencyKey)).toEqual([null, null])
    expect(without[0]!.json().uuid).not.toBe(without[1]!.json().uuid)
  })

  for (const status of [201, 202, 400, 404, 409, 422, 500, 503]) {
    it(`answers the requested status ${status} with the echo body`, async () => {
      const key = newKey()
      const response = await echo(key, `?status=${status}`)
      expect(response.statusCode).toBe(status)
      expect(response.json()).toEqual({ idempotencyKey: key, uuid: expect.stringMatching(UUID) })
    })
  }

  it('waits `sleep` milliseconds first', async () => {
    const started = Date.now()
    expect((await echo(undefined, '?sleep=120')).statusCode).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(110)
  })

  const bad = ['status=99', 'status=600', 'status=abc', 'status=200.5', 'status=', 'sleep=-1', 'sleep=30001', 'sleep=1.5', 'sleep=soon']
  for (const query of bad) {
    it(`refuses ?${query} with 400 naming the parameter`, async () => {
      const body = expectError(await echo(undefined, `?${query}`), 400, 'invalid_request')
      expect(body.details?.[0]?.field).toBe(query.split('=')[0])
    })
  }
})

describe('Idempotency-Key: a completed request is replayed and creates nothing', () => {
  it('replays a created counterparty: same status and body, Idempotent-Replayed: true, one row', async () => {
    const key = newKey()
    const before = await countCounterparties(t)
    const first = await createWithKey(key)
    expectFresh(first, 201)
    const replays = [await createWithKey(key), await createWithKey(key)]
    for (const replay of replays) expectReplayOf(replay, first)
    expect(await countCounterparties(t)).toBe(before + 1)
  })

  it('replays the test endpoint with the first UUID', async () => {
    const key = newKey()
    const first = await echo(key, '?status=201')
    const replay = await echo(key, '?status=201')
    expectReplayOf(replay, first)
    expect(replay.json().uuid).toBe(first.json().uuid)
  })

  it('treats a body with the same members in another order as the same request', async () => {
    const key = newKey()
    const body = counterpartyBody()
    const reordered = Object.fromEntries(Object.entries(body).reverse())
    const first = await createWithKey(key, body)
    expectReplayOf(await createWithKey(key, reordered), first)
  })

  it('replays to another access key of the same organization', async () => {
    const key = newKey()
    const first = await createWithKey(key)
    expectReplayOf(await createWithKey(key, counterpartyBody(), await t.newKey('admin')), first)
  })

  it('still authenticates and authorizes a replay', async () => {
    const key = newKey()
    await createWithKey(key)
    expectError(await createWithKey(key, counterpartyBody(), { ...t.owner, secret: 'wrong' }), 401, 'unauthorized')
    expectError(await createWithKey(key, counterpartyBody(), await t.newKey('read-only')), 403, 'forbidden')
  })

  it('stores and replays a 4xx the handler answered, such as a duplicate externalId', async () => {
    await createCounterparty(t, { externalId: 'idem-dup' })
    const key = newKey()
    const first = await createWithKey(key, counterpartyBody({ externalId: 'idem-dup' }))
    expectError(first, 409, 'external_id_taken')
    expectReplayOf(await createWithKey(key, counterpartyBody({ externalId: 'idem-dup' })), first)
  })

  it('does not claim the key for a request refused by validation, so the corrected request can use it', async () => {
    const key = newKey()
    expectError(await createWithKey(key, counterpartyBody({ legalName: '' })), 400, 'invalid_request')
    expect(await keyRows(key)).toEqual([])
    expectError(await createWithKey(key, counterpartyBody({ legalName: '' })), 400, 'invalid_request')
    expectFresh(await createWithKey(key), 201)
  })

  it('replays a PATCH instead of answering 412 for the etag it already moved on', async () => {
    const counterparty = await createCounterparty(t)
    const key = newKey()
    const patch = () =>
      t.request({
        method: 'PATCH',
        url: `${COUNTERPARTIES}/${counterparty.id}`,
        headers: { 'idempotency-key': key, 'if-match': 'version:1' },
        body: [{ op: 'replace', path: '/legalName', value: 'Patched once' }],
      })
    const first = await patch()
    expectFresh(first)
    expect(first.json().version).toBe(2)
    expectReplayOf(await patch(), first)
    expect((await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })).json().version).toBe(2)
  })
})

describe('Idempotency-Key: the same key with a different request is a 422', () => {
  it('for another body', async () => {
    const key = newKey()
    expectFresh(await createWithKey(key), 201)
    const before = await countCounterparties(t)
    expectError(await createWithKey(key, counterpartyBody({ legalName: 'Other GmbH' })), 422, 'idempotency_key_reused')
    expect(await countCounterparties(t)).toBe(before)
  })

  it('for other query parameters', async () => {
    const key = newKey()
    expectFresh(await echo(key, '?status=201'), 201)
    expectError(await echo(key, '?status=202'), 422, 'idempotency_key_reused')
    expectError(await echo(key), 422, 'idempotency_key_reused')
  })
})

describe('Idempotency-Key: 425 while the first request still runs', () => {
  it('answers 425 with Retry-After, then replays once the first has finished', async () => {
    const key = newKey()
    const running = echo(key, '?sleep=500')
    while ((await keyRows(key)).length === 0) await sleep(5)
    const early = await echo(key, '?sleep=500')
    expectError(early, 425, 'idempotency_key_in_use')
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0)
    const first = await running
    expectFresh(first)
    expectReplayOf(await echo(key, '?sleep=500'), first)
  })

  it('answers 422, not 425, to a different request with the running key', async () => {
    const key = newKey()
    const running = echo(key, '?sleep=200')
    while ((await keyRows(key)).length === 0) await sleep(5)
    expectError(await echo(key, '?sleep=201'), 422, 'idempotency_key_reused')
    expectFresh(await running)
  })
})

describe('Idempotency-Key: a 5xx is not stored, so a retry runs again', () => {
  for (const status of [500, 502, 503]) {
    it(`after a ${status}`, async () => {
      const key = newKey()
      const first = await echo(key, `?status=${status}`)
      expectFresh(first, status)
      expect(await keyRows(key)).toEqual([])
      const retry = await echo(key, `?status=${status}`)
      expectFresh(retry, status)
      expect(retry.json().uuid).not.toBe(first.json().uuid)
    })
  }

  it('while a 4xx is stored and replayed', async () => {
    const key = newKey()
    const first = await echo(key, '?status=404')
    expect(first.statusCode).toBe(404)
    expectReplayOf(await echo(key, '?status=404'), first)
  })
})

describe('Idempotency-Key: a stored response that rolls back with its transaction is not kept', () => {
  let failingCommits: ApiApp
  beforeAll(async () => {
    // A server whose transactions do all their work, the stored response included, and then fail to commit.
    const database: Database = {
      ...t.db.database,
      transaction: (work) =>
        t.db.database.transaction(async (trx) => {
          await work(trx)
          throw new Error('commit failed')
        }),
    }
    failingCommits = await serverOn(database)
  })
  afterAll(() => failingCommits.close())

  it('releases the key, so a retry runs instead of waiting out the lease with 425s', async () => {
    const key = newKey()
    const create = () =>
      failingCommits.inject({
        method: 'POST',
        url: COUNTERPARTIES,
        payload: counterpartyBody({ legalName: 'Rolled Back' }),
        headers: { authorization: basicAuth(t.owner), 'idempotency-key': key },
      })
    expectError(await create(), 500, 'internal_error')
    expect(await keyRows(key)).toEqual([])
    expectError(await create(), 500, 'internal_error')
    const stored = await createWithKey(key, counterpartyBody({ legalName: 'Rolled Back' }))
    expectFresh(stored, 201)
  })
})

describe('Idempotency-Key: scoped per organization and per method + path', () => {
  it('lets another organization use the same key for its own request', async () => {
    const key = newKey()
    const other = await t.newOrganization()
    const mine = await createWithKey(key)
    const theirs = await createWithKey(key, counterpartyBody(), other)
    expectFresh(theirs, 201)
    expect(theirs.json().id).not.toBe(mine.json().id)
    expect(theirs.json().organizationId).toBe(other.organizationId)
    expect(await countCounterparties(t, other.organizationId)).toBe(1)
    const theirEcho = await echo(key, '', other)
    expectFresh(theirEcho)
  })

  it('keeps the same key apart on different paths', async () => {
    const key = newKey()
    expectFresh(await createWithKey(key), 201)
    const onTest = await echo(key)
    expectFresh(onTest)
    expect(onTest.json().idempotencyKey).toBe(key)

    const [a, b] = [await createCounterparty(t), await createCounterparty(t)]
    for (const counterparty of [a, b]) {
      const response = await t.request({
        method: 'PATCH',
        url: `${COUNTERPARTIES}/${counterparty.id}`,
        headers: { 'idempotency-key': key, 'if-match': 'version:1' },
        body: [{ op: 'replace', path: '/legalName', value: 'Same key' }],
      })
      expectFresh(response)
      expect(response.json()).toMatchObject({ id: counterparty.id, version: 2 })
    }
  })

  it('keeps the same key apart on different methods of a path', async () => {
    const key = newKey()
    const counterparty = await createCounterparty(t)
    const url = `${COUNTERPARTIES}/${counterparty.id}`
    const patched = await t.request({
      method: 'PATCH',
      url,
      headers: { 'idempotency-key': key, 'if-match': 'version:1' },
      body: [{ op: 'replace', path: '/legalName', value: 'Method scope' }],
    })
    expectFresh(patched)
    const rows = await keyRows(key)
    expect(rows.map((row) => [row.method, row.path])).toEqual([['PATCH', url]])
    expect(rows[0]!.organization_id).toBe(t.owner.organizationId)
  })
})

describe('Idempotency-Key is ignored on GET and DELETE', () => {
  it('GET answers normally, stores nothing, and does not even check the key', async () => {
    for (const key of [newKey(), 'not a valid key because of spaces', 'x'.repeat(300)]) {
      const response = await t.request({ method: 'GET', url: COUNTERPARTIES, headers: { 'idempotency-key': key } })
      expectFresh(response)
      expect(await keyRows(key)).toEqual([])
    }
  })

  it('DELETE runs every time: 204, then 410 for the same key', async () => {
    const counterparty = await createCounterparty(t)
    const key = newKey()
    const url = `${COUNTERPARTIES}/${counterparty.id}`
    const headers = { 'idempotency-key': key, 'if-match': counterparty.etag }
    const first = await t.request({ method: 'DELETE', url, headers })
    expectFresh(first, 204)
    const second = await t.request({ method: 'DELETE', url, headers })
    expectError(second, 410, 'gone')
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    expect(await keyRows(key)).toEqual([])
  })
})

describe('Idempotency-Key: the key itself', () => {
  for (const [name, key] of [
    ['empty', ''],
    ['with spaces', 'has spaces'],
    ['over 255 characters', 'k'.repeat(256)],
    ['with non-ASCII', 'clé'],
  ] as const) {
    it(`refuses a key ${name} on POST with 400 naming Idempotency-Key`, async () => {
      const response = await t.request({ method: 'POST', url: TEST_ENDPOINT, headers: { 'idempotency-key': key } })
      expect(expectError(response, 400, 'invalid_request').details?.[0]?.field).toBe('Idempotency-Key')
    })
  }

  it('accepts a 255-character key of visible ASCII', async () => {
    const key = `${'~!'.repeat(127)}z`
    expectFresh(await echo(key))
    expect((await echo(key)).headers['idempotent-replayed']).toBe('true')
  })
})

describe('Idempotency-Key: lifetime and crashed holders', () => {
  it('stores the key for 24 hours from its first use', async () => {
    const key = newKey()
    await echo(key)
    const [row] = await keyRows(key)
    const lifetime = Date.parse(row!.expires_at) - Date.parse(row!.created)
    expect(lifetime).toBe(24 * 60 * 60 * 1000)
    expect(row!.state).toBe('COMPLETED')
  })

  it('takes over a key whose holder died (in progress, lock lapsed) and runs the request', async () => {
    const key = newKey()
    const first = await echo(key)
    // As a process that crashed mid-request leaves it: in progress, no response, its lease in the past.
    await t.db.database.db
      .updateTable('idempotency_keys')
      .set({ state: 'IN_PROGRESS', response_status: null, response_body: null, locked_until: new Date(Date.now() - 1000).toISOString() })
      .where('key', '=', key)
      .execute()
    const retry = await echo(key)
    expectFresh(retry)
    expect(retry.json().uuid).not.toBe(first.json().uuid)
    expectReplayOf(await echo(key), retry)
  })

  it('answers 425 while the lock of an in-progress key has not lapsed', async () => {
    const key = newKey()
    await echo(key)
    await t.db.database.db
      .updateTable('idempotency_keys')
      .set({ state: 'IN_PROGRESS', response_status: null, response_body: null, locked_until: new Date(Date.now() + 60_000).toISOString() })
      .where('key', '=', key)
      .execute()
    expectError(await echo(key), 425, 'idempotency_key_in_use')
  })

  it('takes over a crashed counterparty create and creates exactly one counterparty', async () => {
    const key = newKey()
    const body = counterpartyBody({ legalName: 'Crash Survivor' })
    // The same request under another key yields the fingerprint this one has.
    const probeKey = newKey()
    await createWithKey(probeKey, body)
    const [probe] = await keyRows(probeKey)
    // What a process of an earlier version that crashed mid-create left: its transaction rolled back, the key in
    // progress, the lease lapsed. (A create now writes its key only with its work, so a crash leaves nothing.)
    await t.db.database.db
      .insertInto('idempotency_keys')
      .values({ ...probe!, key, state: 'IN_PROGRESS', response_status: null, response_body: null, locked_until: '2000-01-01T00:00:00.000Z' })
      .execute()
    const before = await countCounterparties(t)
    const retry = await createWithKey(key, body)
    expectFresh(retry, 201)
    expect(await countCounterparties(t)).toBe(before + 1)
    expectReplayOf(await createWithKey(key, body), retry)
  })

  it('purges keys past their lifetime when a server starts, and keeps the others', async () => {
    const [expired, live] = [newKey(), newKey()]
    await echo(expired)
    await echo(live)
    await t.db.database.db
      .updateTable('idempotency_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('key', '=', expired)
      .execute()
    const restarted = await serverOn(t.db.database)
    await restarted.ready()
    await restarted.close()
    expect(await keyRows(expired)).toEqual([])
    expect(await keyRows(live)).toHaveLength(1)
  })

  it('reuses an expired key as if new, even for a different request', async () => {
    const key = newKey()
    const first = await echo(key, '?status=201')
    await t.db.database.db
      .updateTable('idempotency_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('key', '=', key)
      .execute()
    const again = await echo(key, '?status=201')
    expectFresh(again, 201)
    expect(again.json().uuid).not.toBe(first.json().uuid)
    await t.db.database.db
      .updateTable('idempotency_keys')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('key', '=', key)
      .execute()
    expectFresh(await echo(key, '?status=202'), 202)
  })
})
