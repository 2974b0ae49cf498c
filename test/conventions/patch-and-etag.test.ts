import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'
import { COUNTERPARTIES, createCounterparty, expectError } from './expectations.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

function patch(id: string, operations: unknown, headers: Record<string, string> = {}) {
  return t.request({ method: 'PATCH', url: `${COUNTERPARTIES}/${id}`, body: operations, headers })
}

const rename = (value: string) => [{ op: 'replace', path: '/legalName', value }]

describe('versions: version from 1, etag version:N', () => {
  it('starts at version 1 with etag version:1', async () => {
    const counterparty = await createCounterparty(t)
    expect(counterparty).toMatchObject({ version: 1, etag: 'version:1' })
  })

  it('bumps version and etag on every PATCH and shows the change on GET', async () => {
    const counterparty = await createCounterparty(t)
    const first = await patch(counterparty.id, rename('Renamed once'), { 'if-match': 'version:1' })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ legalName: 'Renamed once', version: 2, etag: 'version:2' })
    expect(first.json().updated >= counterparty.updated).toBe(true)
    const second = await patch(counterparty.id, rename('Renamed twice'), { 'if-match': 'version:2' })
    expect(second.json()).toMatchObject({ legalName: 'Renamed twice', version: 3, etag: 'version:3' })
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })
    expect(read.json()).toEqual(second.json())
  })
})

describe('If-Match on PATCH: missing → 428, stale → 412, compared verbatim', () => {
  it('answers 428 without If-Match and changes nothing', async () => {
    const counterparty = await createCounterparty(t)
    expectError(await patch(counterparty.id, rename('No precondition')), 428, 'precondition_required')
    expectError(await patch(counterparty.id, rename('Empty precondition'), { 'if-match': '' }), 428, 'precondition_required')
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })
    expect(read.json()).toMatchObject({ legalName: 'Acme GmbH', version: 1 })
  })

  it('answers 412 for a stale etag and changes nothing', async () => {
    const counterparty = await createCounterparty(t)
    expect((await patch(counterparty.id, rename('Fresh'), { 'if-match': 'version:1' })).statusCode).toBe(200)
    const stale = await patch(counterparty.id, rename('Stale'), { 'if-match': 'version:1' })
    expectError(stale, 412, 'precondition_failed')
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })
    expect(read.json()).toMatchObject({ legalName: 'Fresh', version: 2 })
  })

  for (const value of ['"version:1"', 'W/"version:1"', 'version:01', 'VERSION:1', ' version:1x', '*', 'version:2']) {
    it(`compares verbatim: If-Match ${value} → 412`, async () => {
      const counterparty = await createCounterparty(t)
      expectError(await patch(counterparty.id, rename('Not applied'), { 'if-match': value }), 412, 'precondition_failed')
    })
  }

  it('checks existence (404) before the precondition', async () => {
    const response = await patch('00000000-0000-7000-8000-000000000000', rename('x'), { 'if-match': 'version:1' })
    expectError(response, 404, 'not_found')
  })

  it('lets exactly one of two updates from the same etag win', async () => {
    const counterparty = await createCounterparty(t)
    const results = await Promise.all(
      ['A', 'B'].map((name) => patch(counterparty.id, rename(`Racer ${name}`), { 'if-match': 'version:1' })),
    )
    expect(results.map((response) => response.statusCode).sort()).toEqual([200, 412])
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })
    expect(read.json().version).toBe(2)
  })
})

describe('JSON Patch (RFC 6902) restricted to the fields a counterparty allows', () => {
  for (const contentType of ['application/json-patch+json', 'application/json', 'application/json; charset=utf-8']) {
    it(`accepts Content-Type ${contentType}`, async () => {
      const counterparty = await createCounterparty(t)
      const response = await t.request({
        method: 'PATCH',
        url: `${COUNTERPARTIES}/${counterparty.id}`,
        body: JSON.stringify(rename(contentType)),
        headers: { 'content-type': contentType, 'if-match': counterparty.etag },
      })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({ legalName: contentType, version: 2 })
    })
  }

  it('refuses a merge patch content type with 415', async () => {
    const counterparty = await createCounterparty(t)
    const response = await t.request({
      method: 'PATCH',
      url: `${COUNTERPARTIES}/${counterparty.id}`,
      body: JSON.stringify({ legalName: 'Merge' }),
      headers: { 'content-type': 'application/merge-patch+json', 'if-match': counterparty.etag },
    })
    expectError(response, 415, 'unsupported_media_type')
  })

  it('applies add, replace and remove on allowed paths, metadata keys included', async () => {
    const counterparty = await createCounterparty(t, { metadata: { keep: '1', drop: '2' } })
    const response = await patch(
      counterparty.id,
      [
        { op: 'replace', path: '/alias', value: 'new alias' },
        { op: 'add', path: '/email', value: 'billing@acme.example' },
        { op: 'add', path: '/metadata/added', value: '3' },
        { op: 'remove', path: '/metadata/drop' },
        { op: 'remove', path: '/partyType' },
      ],
      { 'if-match': counterparty.etag },
    )
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body).toMatchObject({ alias: 'new alias', email: 'billing@acme.example', metadata: { keep: '1', added: '3' }, version: 2 })
    expect(body.partyType).toBeUndefined()
    expect(body.metadata.drop).toBeUndefined()
  })

  it('sets an absent optional field and an absent metadata key with replace, as the reference accepts', async () => {
    const counterparty = await createCounterparty(t, { email: undefined, metadata: { keep: '1' } })
    expect(counterparty.email).toBeUndefined()
    const response = await patch(
      counterparty.id,
      [
        { op: 'replace', path: '/email', value: 'billing@acme.example' },
        { op: 'replace', path: '/metadata/costCenter', value: '4711' },
      ],
      { 'if-match': counterparty.etag },
    )
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ email: 'billing@acme.example', metadata: { keep: '1', costCenter: '4711' }, version: 2 })
  })

  const disallowed: [string, unknown[]][] = [
    ['replace /id', [{ op: 'replace', path: '/id', value: '00000000-0000-7000-8000-000000000000' }]],
    ['replace /version', [{ op: 'replace', path: '/version', value: 9 }]],
    ['replace /etag', [{ op: 'replace', path: '/etag', value: 'version:9' }]],
    ['replace /organizationId', [{ op: 'replace', path: '/organizationId', value: '00000000-0000-7000-8000-000000000000' }]],
    ['replace /externalId', [{ op: 'replace', path: '/externalId', value: 'changed' }]],
    ['add /accounts/-', [{ op: 'add', path: '/accounts/-', value: {} }]],
    ['remove /legalName', [{ op: 'remove', path: '/legalName' }]],
    ['add /unknownField', [{ op: 'add', path: '/unknownField', value: 'x' }]],
    ['move', [{ op: 'move', from: '/alias', path: '/legalName' }]],
    ['copy', [{ op: 'copy', from: '/alias', path: '/legalName' }]],
    ['an allowed op after a disallowed one', [{ op: 'replace', path: '/alias', value: 'ok' }, { op: 'replace', path: '/id', value: 'x' }]],
  ]
  for (const [name, operations] of disallowed) {
    it(`refuses ${name} with 400 naming the operation, and changes nothing`, async () => {
      const counterparty = await createCounterparty(t)
      const body = expectError(await patch(counterparty.id, operations, { 'if-match': counterparty.etag }), 400, 'invalid_patch')
      expect(body.details?.[0]?.field).toBe(String(operations.length - 1))
      const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })
      expect(read.json()).toEqual(counterparty)
    })
  }

  it('revalidates the result: a wrong type or enum value → 400 naming the field', async () => {
    const counterparty = await createCounterparty(t)
    const wrongType = await patch(counterparty.id, rename(42 as unknown as string), { 'if-match': counterparty.etag })
    expect(expectError(wrongType, 400, 'invalid_patch').details?.map((detail) => detail.field)).toContain('legalName')
    const wrongEnum = await patch(counterparty.id, [{ op: 'replace', path: '/partyType', value: 'ROBOT' }], {
      'if-match': counterparty.etag,
    })
    expect(expectError(wrongEnum, 400, 'invalid_patch').details?.map((detail) => detail.field)).toContain('partyType')
  })

  it('refuses a replace without a value, and a remove of a missing member', async () => {
    const counterparty = await createCounterparty(t, { email: undefined })
    const noValue = await patch(counterparty.id, [{ op: 'replace', path: '/legalName' }], { 'if-match': counterparty.etag })
    expect(expectError(noValue, 400, 'invalid_patch').details?.[0]?.field).toBe('0.value')
    const missing = await patch(counterparty.id, [{ op: 'remove', path: '/email' }], { 'if-match': counterparty.etag })
    expectError(missing, 400, 'invalid_patch')
  })

  const malformed: [string, unknown][] = [
    ['an empty patch', []],
    ['an object instead of an array', { op: 'replace', path: '/legalName', value: 'x' }],
    ['an unknown op', [{ op: 'merge', path: '/legalName', value: 'x' }]],
    ['an operation without a path', [{ op: 'replace', value: 'x' }]],
  ]
  for (const [name, body] of malformed) {
    it(`refuses ${name} with 400`, async () => {
      const counterparty = await createCounterparty(t)
      expectError(await patch(counterparty.id, body, { 'if-match': counterparty.etag }), 400, 'invalid_request')
    })
  }
})

describe('unknown fields in request bodies are a 400 that names the field', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['at the top level', { nickname: 'x' }, 'nickname'],
    ['a misspelt field', { legalname: 'x' }, 'legalname'],
    ['read-only fields', { id: '00000000-0000-7000-8000-000000000000' }, 'id'],
    ['in an account', { accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }], bic: 'x' }] }, 'accounts.0.bic'],
    ['in an identifier', { accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000', bank: 'x' }] }] }, 'accounts.0.identifiers.0.bank'],
    ['in the address', { address: { country: 'DE', planet: 'Earth' } }, 'address.planet'],
  ]
  for (const [name, overrides, field] of cases) {
    it(`on create: ${name} → ${field}`, async () => {
      const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(overrides) })
      const body = expectError(response, 400, 'invalid_request')
      expect(body.details).toContainEqual({ code: 'unknown_field', field, error: 'is not a known field' })
    })
  }

  it('names every unknown field at once', async () => {
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ one: 1, two: 2 }) })
    const fields = expectError(response, 400, 'invalid_request').details?.map((detail) => detail.field)
    expect(fields?.sort()).toEqual(['one', 'two'])
  })

  it('on PATCH: an unknown member of an operation', async () => {
    const counterparty = await createCounterparty(t)
    const response = await patch(counterparty.id, [{ op: 'replace', path: '/legalName', value: 'x', why: 'because' }], {
      'if-match': counterparty.etag,
    })
    expect(expectError(response, 400, 'invalid_request').details).toContainEqual({
      code: 'unknown_field',
      field: '0.why',
      error: 'is not a known field',
    })
  })
})
