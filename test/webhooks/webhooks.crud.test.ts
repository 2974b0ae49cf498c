import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/test-app.js'
import { createWebhook, expectError, startWebhookTestApp, WEBHOOKS } from './webhook-helpers.js'

let t: TestApp
const URL_A = 'http://127.0.0.1:9/a'
const FILTER = [{ resource: 'credit_transfers', apiVersion: 2, events: ['FULLY_APPROVED', 'SENT_TO_BANK'] }]

beforeAll(async () => {
  t = await startWebhookTestApp({ webhooks: { startWorker: false } })
})
afterAll(() => t.close())

describe('webhooks: create, read, replace, delete', () => {
  it('creates a webhook and shows its signing key this once', async () => {
    const created = await createWebhook(t, { name: 'Ledger sync', url: URL_A, filter: FILTER })
    expect(created).toMatchObject({ name: 'Ledger sync', url: URL_A, filter: FILTER, verified: true, version: 1, organizationId: t.owner.organizationId })
    expect(created.keys).toHaveLength(1)
    expect(Buffer.from(created.keys[0]!.signingKey, 'base64')).toHaveLength(32)

    const fetched = await t.request({ method: 'GET', url: `${WEBHOOKS}/${created.id}` })
    expect(fetched.statusCode).toBe(200)
    expect(fetched.json()).toMatchObject({ id: created.id, url: URL_A, filter: FILTER, keys: [{ id: created.keys[0]!.id }] })
    expect(fetched.body).not.toContain(created.keys[0]!.signingKey)
    expect(fetched.json().keys[0]).not.toHaveProperty('signingKey')

    const listed = await t.request({ method: 'GET', url: WEBHOOKS })
    expect(listed.json().items.map((w: { id: string }) => w.id)).toContain(created.id)
    expect(listed.body).not.toContain(created.keys[0]!.signingKey)
  })

  it('lists newest first, paged', async () => {
    const ids = []
    for (let i = 0; i < 3; i++) ids.push((await createWebhook(t, { url: `${URL_A}/${i}` })).id)
    const first = (await t.request({ method: 'GET', url: `${WEBHOOKS}?limit=2` })).json()
    expect(first.items.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]])
    const second = (await t.request({ method: 'GET', url: `${WEBHOOKS}?limit=2&token=${first.nextToken}` })).json()
    expect(second.items[0].id).toBe(ids[0])
  })

  it('replaces name, url and filter with PUT, removing an omitted name', async () => {
    const created = await createWebhook(t, { name: 'Old', url: URL_A })
    const replaced = await t.request({ method: 'PUT', url: `${WEBHOOKS}/${created.id}`, body: { url: 'http://127.0.0.1:9/b', filter: FILTER } })
    expect(replaced.statusCode, replaced.body).toBe(200)
    expect(replaced.json()).toMatchObject({ url: 'http://127.0.0.1:9/b', filter: FILTER, version: 2 })
    expect(replaced.json()).not.toHaveProperty('name')
    expect(replaced.json().keys).toEqual([{ id: created.keys[0]!.id, created: created.keys[0]!.created }])
  })

  it('deletes: afterwards 410, and gone from the list', async () => {
    const created = await createWebhook(t, { url: URL_A })
    expect((await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${created.id}` })).statusCode).toBe(204)
    expectError(await t.request({ method: 'GET', url: `${WEBHOOKS}/${created.id}` }), 410, 'gone')
    expectError(await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${created.id}` }), 410, 'gone')
    expectError(await t.request({ method: 'PUT', url: `${WEBHOOKS}/${created.id}`, body: { url: URL_A, filter: FILTER } }), 410, 'gone')
    const listed = (await t.request({ method: 'GET', url: `${WEBHOOKS}?limit=500` })).json()
    expect(listed.items.map((w: { id: string }) => w.id)).not.toContain(created.id)
  })

  it('validates the body: url, filter resources, API version, event names, unknown fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ filter: FILTER }, 'url'],
      [{ url: URL_A }, 'filter'],
      [{ url: URL_A, filter: [] }, 'filter'],
      [{ url: URL_A, filter: [{ resource: 'payments', apiVersion: 2 }] }, 'filter.0.resource'],
      [{ url: URL_A, filter: [{ resource: 'counterparties', apiVersion: 1 }] }, 'filter.0.apiVersion'],
      [{ url: URL_A, filter: [{ resource: 'counterparties', apiVersion: 2, events: ['created'] }] }, 'filter.0.events.0'],
      [{ url: URL_A, filter: [{ resource: 'counterparties', apiVersion: 2 }, { resource: 'counterparties', apiVersion: 2 }] }, 'filter.1.resource'],
      [{ url: 'not a url', filter: FILTER }, 'url'],
      [{ url: URL_A, filter: FILTER, secret: 'x' }, 'secret'],
    ]
    for (const [body, field] of cases) {
      const response = await t.request({ method: 'POST', url: WEBHOOKS, body })
      const error = expectError(response, 400, 'invalid_request')
      expect(error.details?.map((d) => d.field), JSON.stringify(body)).toContain(field)
    }
  })

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expectError(await t.request({ method: 'GET', url: `${WEBHOOKS}/nope` }), 400, 'invalid_request')
    expectError(await t.request({ method: 'GET', url: `${WEBHOOKS}/01900000-0000-7000-8000-000000000000` }), 404, 'not_found')
  })
})

describe('webhooks: signing keys', () => {
  it('rotates: a second key is shown once, a third is refused, the last cannot be deleted', async () => {
    const created = await createWebhook(t, { url: URL_A })
    const added = await t.request({ method: 'POST', url: `${WEBHOOKS}/${created.id}/keys` })
    expect(added.statusCode, added.body).toBe(201)
    const second = added.json<{ id: string; signingKey: string; created: string }>()
    expect(Buffer.from(second.signingKey, 'base64')).toHaveLength(32)
    expect(second.signingKey).not.toBe(created.keys[0]!.signingKey)

    expectError(await t.request({ method: 'POST', url: `${WEBHOOKS}/${created.id}/keys` }), 412, 'too_many_keys')
    const listed = (await t.request({ method: 'GET', url: `${WEBHOOKS}/${created.id}` })).json()
    expect(listed.keys.map((k: { id: string }) => k.id)).toEqual([created.keys[0]!.id, second.id])

    expect((await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${created.id}/keys/${created.keys[0]!.id}` })).statusCode).toBe(204)
    expectError(await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${created.id}/keys/${second.id}` }), 412, 'key_required')
    expectError(await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${created.id}/keys/${created.keys[0]!.id}` }), 404, 'not_found')
    const after = (await t.request({ method: 'GET', url: `${WEBHOOKS}/${created.id}` })).json()
    expect(after.keys.map((k: { id: string }) => k.id)).toEqual([second.id])
  })

  it('never lets concurrent additions pass two keys', async () => {
    const created = await createWebhook(t, { url: URL_A })
    const responses = await Promise.all([1, 2, 3, 4].map(() => t.request({ method: 'POST', url: `${WEBHOOKS}/${created.id}/keys` })))
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 412, 412, 412])
    const after = (await t.request({ method: 'GET', url: `${WEBHOOKS}/${created.id}` })).json()
    expect(after.keys).toHaveLength(2)
  })
})

describe('webhooks: authorization and tenancy', () => {
  it('needs webhooks permissions: read-only keys read but cannot change', async () => {
    const created = await createWebhook(t, { url: URL_A })
    const reader = await t.newKey('read-only')
    expect((await t.request({ method: 'GET', url: `${WEBHOOKS}/${created.id}`, as: reader })).statusCode).toBe(200)
    expectError(await t.request({ method: 'POST', url: WEBHOOKS, body: { url: URL_A, filter: FILTER }, as: reader }), 403, 'forbidden')
    expectError(await t.request({ method: 'POST', url: `${WEBHOOKS}/${created.id}/keys`, as: reader }), 403, 'forbidden')
    expectError(await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${created.id}`, as: reader }), 403, 'forbidden')
    expectError(await t.request({ method: 'GET', url: WEBHOOKS, as: null }), 401, 'unauthorized')
  })

  it('hides another organization’s webhooks (404) and lists only one’s own', async () => {
    const created = await createWebhook(t, { url: URL_A })
    const other = await t.newOrganization()
    expectError(await t.request({ method: 'GET', url: `${WEBHOOKS}/${created.id}`, as: other }), 404, 'not_found')
    expectError(await t.request({ method: 'PUT', url: `${WEBHOOKS}/${created.id}`, body: { url: URL_A, filter: FILTER }, as: other }), 404, 'not_found')
    expectError(await t.request({ method: 'POST', url: `${WEBHOOKS}/${created.id}/keys`, as: other }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${WEBHOOKS}/${created.id}/deliveries`, as: other }), 404, 'not_found')
    expect((await t.request({ method: 'GET', url: WEBHOOKS, as: other })).json().items).toEqual([])
  })

  it('replays a create with the same Idempotency-Key: one webhook, the same key', async () => {
    const headers = { 'idempotency-key': 'create-webhook-1' }
    const body = { url: URL_A, filter: FILTER }
    const first = await t.request({ method: 'POST', url: WEBHOOKS, body, headers })
    const again = await t.request({ method: 'POST', url: WEBHOOKS, body, headers })
    expect(first.statusCode).toBe(201)
    expect(again.statusCode).toBe(201)
    expect(again.json()).toEqual(first.json())
  })
})
