import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { COUNTERPARTIES, createCounterparty, expectError } from './expectations.js'

let t: TestApp
let counterpartyId: string
beforeAll(async () => {
  t = await startTestApp()
  counterpartyId = (await createCounterparty(t, { externalId: 'routing-1' })).id
})
afterAll(() => t.close())

describe('paths: /{namespace}/v{n}/{resource}[/{id}], no trailing slash', () => {
  it('answers 404 route_not_found for an unknown path, with or without credentials', async () => {
    for (const as of [undefined, null]) {
      const response = await t.request({ method: 'GET', url: '/payments/v2/no-such-things', as })
      const body = expectError(response, 404, 'route_not_found')
      expect(body.message).toContain('/payments/v2/no-such-things')
    }
  })

  it('answers 404 for an unknown version of a known resource', async () => {
    expectError(await t.request({ method: 'GET', url: '/payments/v1/counterparties' }), 404, 'route_not_found')
  })

  it('treats a trailing slash as another path: 404 on the collection, the item and the test endpoint', async () => {
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/` }), 404, 'route_not_found')
    expectError(await t.request({ method: 'POST', url: `${COUNTERPARTIES}/`, body: {} }), 404, 'route_not_found')
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterpartyId}/` }), 404, 'route_not_found')
    expectError(await t.request({ method: 'POST', url: '/v1/idempotency-test/' }), 404, 'route_not_found')
    expectError(await t.request({ method: 'GET', url: '/healthz/', as: null }), 404, 'route_not_found')
  })

  it('treats an empty segment as another path: 404, not the item route with an empty id', async () => {
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}//events` }), 404, 'route_not_found')
    expectError(await t.request({ method: 'GET', url: '/payments/v2//counterparties' }), 404, 'route_not_found')
    expectError(await t.request({ method: 'PATCH', url: `${COUNTERPARTIES}/?x=1`, body: [] }), 404, 'route_not_found')
  })

  it('matches paths case-sensitively', async () => {
    expectError(await t.request({ method: 'GET', url: '/payments/v2/Counterparties' }), 404, 'route_not_found')
  })
})

describe('405 with Allow for a known path and an unsupported method', () => {
  it('on the collection', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const response = await t.request({ method, url: COUNTERPARTIES, body: {} })
      expectError(response, 405, 'method_not_allowed')
      expect(response.headers.allow).toBe('GET, POST')
    }
  })

  it('on an item', async () => {
    for (const method of ['PUT', 'POST'] as const) {
      const response = await t.request({ method, url: `${COUNTERPARTIES}/${counterpartyId}`, body: {} })
      expectError(response, 405, 'method_not_allowed')
      expect(response.headers.allow).toBe('GET, PATCH, DELETE')
    }
  })

  it('on /v1/idempotency-test and the health probes, also without credentials', async () => {
    const test = await t.request({ method: 'GET', url: '/v1/idempotency-test', as: null })
    expectError(test, 405, 'method_not_allowed')
    expect(test.headers.allow).toBe('POST')
    const health = await t.request({ method: 'POST', url: '/healthz', as: null })
    expectError(health, 405, 'method_not_allowed')
    expect(health.headers.allow).toBe('GET')
  })

  it('answers 405 even for a path whose id would be invalid (the method is wrong whatever the id)', async () => {
    const response = await t.request({ method: 'PUT', url: `${COUNTERPARTIES}/not-an-id` })
    expectError(response, 405, 'method_not_allowed')
  })
})

describe('ids: a UUID or external:{externalId}, anything else is a 400 naming the id', () => {
  const badIds = [
    'not-a-uuid',
    '12345',
    '0190c0de-0000-7000-8000-00000000000', // one digit short
    '0190c0de-0000-7000-8000-0000000000000', // one digit long
    'external:', // empty externalId
    'external:has space',
    'external:has%2Fslash',
    `external:${'x'.repeat(65)}`,
    'EXTERNAL:routing-1',
    '%00',
    'null',
  ]
  for (const id of badIds) {
    it(`GET, PATCH and DELETE …/counterparties/${id.slice(0, 40)} → 400`, async () => {
      for (const method of ['GET', 'DELETE'] as const) {
        const body = expectError(await t.request({ method, url: `${COUNTERPARTIES}/${id}` }), 400, 'invalid_request')
        expect(body.details?.[0]?.field).toBe('id')
      }
      const patch = await t.request({
        method: 'PATCH',
        url: `${COUNTERPARTIES}/${id}`,
        headers: { 'if-match': 'version:1' },
        body: [{ op: 'replace', path: '/legalName', value: 'x' }],
      })
      expect(expectError(patch, 400, 'invalid_request').details?.[0]?.field).toBe('id')
    })
  }

  it('answers 400 for an id longer than any id or external reference', async () => {
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${'x'.repeat(300)}` }), 400, 'invalid_request')
  })

  it('answers 400 (not 500) for a malformed percent-encoding in the path', async () => {
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/%E0%A4%A` }), 400, 'invalid_request')
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/%zz` }), 400, 'invalid_request')
  })

  it('answers 404 for a well-formed id nobody has, and finds ids case-insensitively', async () => {
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/00000000-0000-7000-8000-000000000000` }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:nobody` }), 404, 'not_found')
    const upper = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterpartyId.toUpperCase()}` })
    expect(upper.statusCode).toBe(200)
    expect(upper.json().id).toBe(counterpartyId)
  })

  it('finds a counterparty by external:{externalId}', async () => {
    const response = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:routing-1` })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ id: counterpartyId, externalId: 'routing-1' })
  })
})
