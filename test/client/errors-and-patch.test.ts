import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKassaClient, KassaApiError, patchResource } from '../../packages/client/src/index.js'
import { newCounterparty, startClientTestServer, type ClientTestServer } from './client-test-server.js'

/** Errors are thrown as KassaApiError with the envelope's fields; patchResource sends If-Match and a JSON Patch. */
let server: ClientTestServer
beforeAll(async () => {
  server = await startClientTestServer()
})
afterAll(() => server?.close())

async function failure(call: Promise<unknown>): Promise<KassaApiError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(KassaApiError)
  return error as KassaApiError
}

describe('KassaApiError', () => {
  it('carries a 404’s status, code, message and request id, and is not retried', async () => {
    const { kassa, attempts } = server.client()
    const missing = '01a1fdde-8ae6-770a-8e14-abcbb71af36f'
    const error = await failure(kassa.GET('/payments/v2/counterparties/{id}', { params: { path: { id: missing } } }))
    expect(error).toMatchObject({ name: 'KassaApiError', status: 404, code: 'not_found', message: `No counterparty ${missing}`, details: [] })
    expect(error).toBeInstanceOf(Error)
    expect(attempts).toHaveLength(1)
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(error.requestId).toBe(attempts[0]!.requestId)
  })

  it('carries the request-id header of a 401, and authentication is Basic with the key and secret', async () => {
    const wrong = createKassaClient({ baseUrl: server.baseUrl, accessKey: server.t.owner.accessKey, secret: 'not-the-secret' })
    const error = await failure(wrong.GET('/financial-data/v2/accounts'))
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' })
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/)
    // Basic with accessKey:secret (spec: Authentication 2): the right pair reads the accounts.
    const { kassa } = server.client()
    const { data } = await kassa.GET('/financial-data/v2/accounts')
    expect(data.items.length).toBeGreaterThan(0)
  })
})

describe('patchResource', () => {
  it('applies a JSON Patch at the current etag, and a stale etag is a 412 KassaApiError', async () => {
    const { kassa, attempts } = server.client()
    const { data: created } = await kassa.POST('/payments/v2/counterparties', { body: newCounterparty({ alias: 'before' }) })
    const params = { path: { id: created.id } }
    attempts.length = 0
    const patched = await patchResource(kassa, '/payments/v2/counterparties/{id}', {
      params,
      etag: created.etag,
      operations: [{ op: 'replace', path: '/alias', value: 'after' }],
    })
    expect(patched).toMatchObject({ id: created.id, alias: 'after', version: created.version + 1 })
    expect(attempts).toHaveLength(1)
    expect(attempts[0]!.idempotencyKey).not.toBeNull()

    const stale = await failure(
      patchResource(kassa, '/payments/v2/counterparties/{id}', { params, etag: created.etag, operations: [{ op: 'replace', path: '/alias', value: 'again' }] }),
    )
    expect(stale).toMatchObject({ status: 412, code: 'precondition_failed' })
    expect(stale.requestId).toBe(attempts.at(-1)!.requestId)
    const { data: current } = await kassa.GET('/payments/v2/counterparties/{id}', { params })
    expect([current.alias, current.etag]).toEqual(['after', patched.etag])
  })

  it('sends the patch as application/json-patch+json with the etag verbatim in If-Match', async () => {
    const { kassa } = server.client()
    const { data: created } = await kassa.POST('/payments/v2/counterparties', { body: newCounterparty({ alias: 'headers' }) })
    const seen: Array<{ contentType: string | null; ifMatch: string | null }> = []
    kassa.use({
      onRequest({ request }) {
        seen.push({ contentType: request.headers.get('content-type'), ifMatch: request.headers.get('if-match') })
        return undefined
      },
    })
    await patchResource(kassa, '/payments/v2/counterparties/{id}', {
      params: { path: { id: created.id } },
      etag: created.etag,
      operations: [{ op: 'add', path: '/metadata/erp', value: 'A-1' }],
    })
    expect(seen).toEqual([{ contentType: 'application/json-patch+json', ifMatch: created.etag }])
  })
})
