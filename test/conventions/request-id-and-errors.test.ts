import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../src/db/database.js'
import type { ApiApp } from '../../src/http/api-app.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'
import { COUNTERPARTIES, createCounterparty, expectError, UUID, serverOn } from './expectations.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

describe('request-id on every response', () => {
  it('is a fresh UUID on each 2xx: 200, 201 and 204', async () => {
    const list = await t.request({ method: 'GET', url: COUNTERPARTIES })
    const created = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody() })
    const deleted = await t.request({ method: 'DELETE', url: `${COUNTERPARTIES}/${created.json().id}`, headers: { 'if-match': created.json().etag } })
    const health = await t.request({ method: 'GET', url: '/healthz', as: null })
    expect([list.statusCode, created.statusCode, deleted.statusCode, health.statusCode]).toEqual([200, 201, 204, 200])
    const ids = [list, created, deleted, health].map((response) => response.headers['request-id'])
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('ignores a request-id the client sends and assigns its own', async () => {
    const response = await t.request({ method: 'GET', url: COUNTERPARTIES, headers: { 'request-id': 'client-chosen' } })
    expect(response.headers['request-id']).toMatch(UUID)
  })

  it('is on the OpenAPI document too', async () => {
    const response = await t.request({ method: 'GET', url: '/openapi.json', as: null })
    expect(response.statusCode).toBe(200)
    expect(response.headers['request-id']).toMatch(UUID)
  })
})

describe('framework errors get the envelope and a request-id, never a 500', () => {
  it('malformed JSON → 400', async () => {
    const response = await t.request({
      method: 'POST',
      url: COUNTERPARTIES,
      body: '{"legalName": "Acme",',
      headers: { 'content-type': 'application/json' },
    })
    expectError(response, 400, 'invalid_request')
  })

  it('a JSON body with __proto__ → 400 (prototype poisoning is refused)', async () => {
    const response = await t.request({
      method: 'POST',
      url: COUNTERPARTIES,
      body: '{"legalName": "Acme", "__proto__": {"admin": true}}',
      headers: { 'content-type': 'application/json' },
    })
    expectError(response, 400, 'invalid_request')
  })

  for (const contentType of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    it(`Content-Type ${contentType} → 415`, async () => {
      const response = await t.request({
        method: 'POST',
        url: COUNTERPARTIES,
        body: JSON.stringify(counterpartyBody()),
        headers: { 'content-type': contentType },
      })
      expectError(response, 415, 'unsupported_media_type')
    })
  }

  it('JSON Patch’s Content-Type on a POST → 415 (it is for PATCH), and nothing is created', async () => {
    const body = counterpartyBody({ legalName: 'Sent as JSON Patch GmbH' })
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: JSON.stringify(body), headers: { 'content-type': 'application/json-patch+json' } })
    expectError(response, 415, 'unsupported_media_type')
    expect(response.json<{ message: string }>().message).toContain('application/json-patch+json is for PATCH')
    const listed = await t.request({ method: 'GET', url: COUNTERPARTIES })
    expect(listed.json<{ items: Array<{ legalName: string }> }>().items.map((item) => item.legalName)).not.toContain(body.legalName)
  })

  it('a JSON body without Content-Type → 415', async () => {
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: JSON.stringify(counterpartyBody()) })
    expectError(response, 415, 'unsupported_media_type')
  })

  it('a body over 1 MiB → 413, also while unauthenticated', async () => {
    const big = JSON.stringify(counterpartyBody({ alias: 'x'.repeat(1024 * 1024) }))
    const headers = { 'content-type': 'application/json' }
    expectError(await t.request({ method: 'POST', url: COUNTERPARTIES, body: big, headers }), 413, 'payload_too_large')
    const anonymous = await t.request({ method: 'POST', url: COUNTERPARTIES, body: big, headers, as: null })
    expect([401, 413]).toContain(anonymous.statusCode)
    expectError(anonymous, anonymous.statusCode, anonymous.statusCode === 401 ? 'unauthorized' : 'payload_too_large')
  })

  it('a body just under 1 MiB is parsed (and then validated: alias too long → 400 naming it)', async () => {
    const body = JSON.stringify(counterpartyBody({ alias: 'x'.repeat(1000 * 1000) }))
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body, headers: { 'content-type': 'application/json' } })
    const error = expectError(response, 400, 'invalid_request')
    expect(error.details?.map((detail) => detail.field)).toEqual(['alias'])
  })

  it('an empty body on POST counterparty → 400, with or without a JSON Content-Type', async () => {
    expectError(await t.request({ method: 'POST', url: COUNTERPARTIES }), 400, 'invalid_request')
    const typed = await t.request({ method: 'POST', url: COUNTERPARTIES, body: '', headers: { 'content-type': 'application/json' } })
    expectError(typed, 400, 'invalid_request')
  })

  for (const body of ['null', '[]', '"text"', '42', 'true']) {
    it(`a JSON ${body} body on POST counterparty → 400`, async () => {
      const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body, headers: { 'content-type': 'application/json' } })
      expectError(response, 400, 'invalid_request')
    })
  }

  it('on routes that do not document the status, too: /v1/idempotency-test answers 415 and 413 in the envelope', async () => {
    const url = '/v1/idempotency-test'
    const wrongType = await t.request({ method: 'POST', url, body: 'hello', headers: { 'content-type': 'text/plain' } })
    expectError(wrongType, 415, 'unsupported_media_type')
    const big = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) })
    expectError(await t.request({ method: 'POST', url, body: big, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large')
    expectError(await t.request({ method: 'POST', url, body: '{', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request')
  })

  it('an unknown route → 404 and a known path with a wrong method → 405, both with request-id', async () => {
    expectError(await t.request({ method: 'GET', url: '/nowhere' }), 404, 'route_not_found')
    expectError(await t.request({ method: 'PUT', url: COUNTERPARTIES }), 405, 'method_not_allowed')
    expectError(await t.request({ method: 'OPTIONS', url: COUNTERPARTIES }), 405, 'method_not_allowed')
  })
})

describe('the error envelope {status, code, message, requestId, details[{code, field, error}]}', () => {
  it('names every invalid field with a dot path, list indices included', async () => {
    const response = await t.request({
      method: 'POST',
      url: COUNTERPARTIES,
      body: counterpartyBody({
        legalName: 5,
        partyType: 'ROBOT',
        accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN' }] }],
      }),
    })
    const body = expectError(response, 400, 'invalid_request')
    const byField = Object.fromEntries((body.details ?? []).map((detail) => [detail.field, detail]))
    expect(Object.keys(byField).sort()).toEqual(['accounts.0.identifiers.0.number', 'legalName', 'partyType'])
    expect(byField['accounts.0.identifiers.0.number']).toMatchObject({ code: 'required', error: 'is required' })
    expect(byField.partyType).toMatchObject({ code: 'invalid_value' })
    expect(byField.partyType!.error).toContain('INDIVIDUAL')
  })

  it('rejects a string where a number-like value is sent as a string (no type coercion in bodies)', async () => {
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ legalName: ['Acme'] }) })
    expect(expectError(response, 400, 'invalid_request').details?.[0]?.field).toBe('legalName')
  })

  it('names an invalid IBAN', async () => {
    const response = await t.request({
      method: 'POST',
      url: COUNTERPARTIES,
      body: counterpartyBody({ accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE00370400440532013000' }] }] }),
    })
    const body = expectError(response, 400, 'invalid_request')
    expect(body.details?.[0]?.field).toMatch(/^accounts\.0\.identifiers\.0/)
  })

  it('a duplicate externalId → 409 external_id_taken', async () => {
    await createCounterparty(t, { externalId: 'dup-1' })
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ externalId: 'dup-1' }) })
    expectError(response, 409, 'external_id_taken')
  })

  it('an invalid externalId → 400 naming it', async () => {
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ externalId: 'no spaces' }) })
    expect(expectError(response, 400, 'invalid_request').details?.[0]?.field).toBe('externalId')
  })

  it('a deleted counterparty → 410 gone on GET, PATCH and DELETE, and it leaves the list', async () => {
    const counterparty = await createCounterparty(t)
    const url = `${COUNTERPARTIES}/${counterparty.id}`
    const ifMatch = { 'if-match': counterparty.etag }
    expect((await t.request({ method: 'DELETE', url, headers: ifMatch })).statusCode).toBe(204)
    expectError(await t.request({ method: 'GET', url }), 410, 'gone')
    expectError(await t.request({ method: 'DELETE', url, headers: ifMatch }), 410, 'gone')
    const patch = await t.request({
      method: 'PATCH',
      url,
      headers: { 'if-match': 'version:2' },
      body: [{ op: 'replace', path: '/legalName', value: 'Back' }],
    })
    expectError(patch, 410, 'gone')
    const list = await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=500` })
    expect((list.json().items as { id: string }[]).map((item) => item.id)).not.toContain(counterparty.id)
  })
})

describe('text PostgreSQL cannot store (U+0000) is a 400 naming the field on both backends', () => {
  it('in a body field, nested ones included', async () => {
    const top = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ legalName: 'a\u0000b' }) })
    expect(expectError(top, 400, 'invalid_request').details?.[0]).toMatchObject({ field: 'legalName', code: 'invalid_value' })
    const nested = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ metadata: { note: '\u0000' } }) })
    expect(expectError(nested, 400, 'invalid_request').details?.[0]?.field).toBe('metadata.note')
  })

  it('in a query filter', async () => {
    const response = await t.request({ method: 'GET', url: `${COUNTERPARTIES}?query=%00abc` })
    expect(expectError(response, 400, 'invalid_request').details?.[0]?.field).toBe('query')
  })

  it('in a JSON Patch value', async () => {
    const counterparty = await createCounterparty(t)
    const response = await t.request({
      method: 'PATCH',
      url: `${COUNTERPARTIES}/${counterparty.id}`,
      headers: { 'if-match': counterparty.etag },
      body: [{ op: 'replace', path: '/legalName', value: 'x\u0000' }],
    })
    expect(expectError(response, 400, 'invalid_request').details?.[0]?.field).toBe('0.value')
  })
})

describe('500s leak nothing', () => {
  const INTERNALS = 'connection to /var/lib/kassa/secret.sqlite lost'
  let broken: ApiApp
  beforeAll(async () => {
    // A server whose database refuses every transaction: reads and key claims work, writes fail.
    const database: Database = { ...t.db.database, transaction: () => Promise.reject(new Error(INTERNALS)) }
    broken = await serverOn(database)
  })
  afterAll(() => broken.close())

  function createOnBroken(headers: Record<string, string> = {}) {
    return broken.inject({
      method: 'POST',
      url: COUNTERPARTIES,
      payload: counterpartyBody({ legalName: 'Never Stored' }),
      headers: { authorization: basicAuth(t.owner), ...headers },
    })
  }

  it('answers the 500 envelope with request-id, no details and nothing of the error', async () => {
    const response = await createOnBroken()
    const body = expectError(response, 500, 'internal_error')
    expect(body.message).toBe('Unexpected server-side problem')
    expect(body.details).toBeUndefined()
    expect(response.body).not.toMatch(/secret|sqlite|connection|stack|Error/)
  })

  it('releases the Idempotency-Key of a request that failed with a 500, so a retry runs again', async () => {
    const headers = { 'idempotency-key': 'after-500' }
    expectError(await createOnBroken(headers), 500, 'internal_error')
    const keys = await t.db.database.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'after-500').execute()
    expect(keys).toEqual([])
    const retry = await createOnBroken(headers)
    expectError(retry, 500, 'internal_error')
    expect(retry.headers['idempotent-replayed']).toBeUndefined()
    const rows = await t.db.database.db.selectFrom('counterparties').select('id').where('legal_name', '=', 'Never Stored').execute()
    expect(rows).toEqual([])
  })
})

describe('unknown query parameters', () => {
  it('are a 400 naming the parameter, as unknown body fields are: a misspelt filter never answers unfiltered data', async () => {
    const response = await t.request({ method: 'GET', url: '/financial-data/v2/transactions?acountId=01a1fddb-3315-741d-bf7b-572f2b720a5c' })
    const body = expectError(response, 400, 'invalid_request')
    expect(body.message).toBe('The query parameters failed validation')
    expect(body.details).toEqual([{ code: 'unknown_field', field: 'acountId', error: 'is not a known field' }])
  })

  it('on every kind of route: lists, reads by id, actions', async () => {
    const created = await createCounterparty(t)
    for (const url of [`${COUNTERPARTIES}?limit=5&colour=red`, `${COUNTERPARTIES}/${created.id}?colour=red`]) {
      const response = await t.request({ method: 'GET', url })
      expect(expectError(response, 400, 'invalid_request').details).toEqual([{ code: 'unknown_field', field: 'colour', error: 'is not a known field' }])
    }
  })
})
