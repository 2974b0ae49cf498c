import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Counterparty } from '../../src/payments/counterparties/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import {
  COUNTERPARTIES,
  EXTERNAL_ACCOUNTS,
  createCounterparty,
  expectError,
  expectInvalidField,
  listAll,
  patch,
  remove,
} from './payments-helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

const url = (counterparty: Pick<Counterparty, 'id'>) => `${COUNTERPARTIES}/${counterparty.id}`
const tick = () => new Promise((resolve) => setTimeout(resolve, 2))

/** Applies the patch to a fresh counterparty, insisting on 200, and returns before and after. */
async function patched(operations: unknown[], overrides: Record<string, unknown> = {}) {
  const before = await createCounterparty(t, overrides)
  await tick()
  const response = await patch(t, url(before), before.etag, operations)
  expect(response.statusCode, response.body).toBe(200)
  return { before, after: response.json<Counterparty>() }
}

describe('PATCH /payments/v2/counterparties/{id}', () => {
  const address = { country: 'FR', city: 'Paris', postalCode: '75001', streetName: 'Rue de Rivoli', streetNumber: '1' }
  const nationalIdentifier = { type: 'COMPANY', market: 'FR', number: '552100554' }

  it.each([
    ['replace legalName', [{ op: 'replace', path: '/legalName', value: 'x'.repeat(255) }], {}, { legalName: 'x'.repeat(255) }],
    ['add alias', [{ op: 'add', path: '/alias', value: 'new' }], { alias: undefined }, { alias: 'new' }],
    ['replace alias', [{ op: 'replace', path: '/alias', value: 'renamed' }], {}, { alias: 'renamed' }],
    ['remove alias', [{ op: 'remove', path: '/alias' }], {}, { alias: undefined }],
    ['replace partyType', [{ op: 'replace', path: '/partyType', value: 'INDIVIDUAL' }], {}, { partyType: 'INDIVIDUAL' }],
    ['remove partyType', [{ op: 'remove', path: '/partyType' }], {}, { partyType: undefined }],
    ['add email', [{ op: 'add', path: '/email', value: 'ap@acme.example' }], {}, { email: 'ap@acme.example' }],
    ['replace email', [{ op: 'replace', path: '/email', value: 'b@x.example' }], { email: 'a@x.example' }, { email: 'b@x.example' }],
    ['remove email', [{ op: 'remove', path: '/email' }], { email: 'a@x.example' }, { email: undefined }],
    ['add phone', [{ op: 'add', path: '/phone', value: '+33 1 23' }], {}, { phone: '+33 1 23' }],
    ['add address', [{ op: 'add', path: '/address', value: address }], {}, { address }],
    ['replace address', [{ op: 'replace', path: '/address', value: { city: 'Lyon' } }], { address }, { address: { city: 'Lyon' } }],
    ['add nationalIdentifier', [{ op: 'add', path: '/nationalIdentifier', value: nationalIdentifier }], {}, { nationalIdentifier }],
    ['add a metadata key', [{ op: 'add', path: '/metadata/crm', value: 'C-9' }], { metadata: { a: '1' } }, { metadata: { a: '1', crm: 'C-9' } }],
    ['replace a metadata key', [{ op: 'replace', path: '/metadata/a', value: '2' }], { metadata: { a: '1' } }, { metadata: { a: '2' } }],
    ['remove a metadata key', [{ op: 'remove', path: '/metadata/a' }], { metadata: { a: '1', b: '2' } }, { metadata: { b: '2' } }],
  ])('%s', async (_name, operations, overrides, expected) => {
    const { before, after } = await patched(operations, overrides)
    const { version: _version, etag: _etag, updated: _updated, ...unchanged } = before
    const expectedBody = { ...unchanged, ...expected, version: 2, etag: 'version:2', updated: after.updated }
    for (const [key, value] of Object.entries(expectedBody)) if (value === undefined) delete (expectedBody as Record<string, unknown>)[key]
    expect(after).toEqual(expectedBody)
    expect(after.updated > before.updated).toBe(true)
    expect((await t.request({ method: 'GET', url: url(before) })).json()).toEqual(after)
  })

  it('applies several operations as one version, also sent as application/json', async () => {
    const before = await createCounterparty(t)
    const response = await t.request({
      method: 'PATCH',
      url: url(before),
      headers: { 'if-match': before.etag },
      body: [
        { op: 'replace', path: '/alias', value: 'one' },
        { op: 'replace', path: '/alias', value: 'two' },
        { op: 'add', path: '/metadata/k', value: 'v' },
      ],
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ alias: 'two', metadata: { k: 'v' }, version: 2, etag: 'version:2' })
    const again = await patch(t, url(before), 'version:2', [{ op: 'remove', path: '/alias' }])
    expect(again.json()).toMatchObject({ version: 3, etag: 'version:3' })
    expect(again.json()).not.toHaveProperty('alias')
  })

  it.each([
    ['replace /accounts', { op: 'replace', path: '/accounts', value: [] }],
    ['add /accounts/-', { op: 'add', path: '/accounts/-', value: { market: 'DE' } }],
    ['replace /id', { op: 'replace', path: '/id', value: '01a1fdb5-0000-7000-8000-000000000000' }],
    ['replace /version', { op: 'replace', path: '/version', value: 9 }],
    ['replace /etag', { op: 'replace', path: '/etag', value: 'version:9' }],
    ['replace /externalId', { op: 'replace', path: '/externalId', value: 'x' }],
    ['replace /organizationId', { op: 'replace', path: '/organizationId', value: 'x' }],
    ['replace /created', { op: 'replace', path: '/created', value: '2020-01-01T00:00:00.000Z' }],
    ['replace /metadata as a whole', { op: 'replace', path: '/metadata', value: {} }],
    ['remove /legalName', { op: 'remove', path: '/legalName' }],
    ['move', { op: 'move', from: '/alias', path: '/email' }],
    ['copy', { op: 'copy', from: '/alias', path: '/email' }],
    ['test', { op: 'test', path: '/alias', value: 'acme' }],
  ])('refuses %s with 400 and changes nothing', async (_name, operation) => {
    const before = await createCounterparty(t)
    expectInvalidField(await patch(t, url(before), before.etag, [operation]), '0', 'invalid_patch')
    expect((await t.request({ method: 'GET', url: url(before) })).json()).toEqual(before)
  })

  it.each([
    ['empty legalName', [{ op: 'replace', path: '/legalName', value: '' }], 'legalName'],
    ['legalName of 256 characters', [{ op: 'replace', path: '/legalName', value: 'x'.repeat(256) }], 'legalName'],
    ['malformed email', [{ op: 'add', path: '/email', value: 'nope' }], 'email'],
    ['unknown partyType', [{ op: 'replace', path: '/partyType', value: 'ORGANIZATION' }], 'partyType'],
    ['alias not a string', [{ op: 'replace', path: '/alias', value: 7 }], 'alias'],
    ['unknown address field', [{ op: 'add', path: '/address', value: { region: 'IDF' } }], 'address.region'],
    ['metadata key with a space', [{ op: 'add', path: '/metadata/bad key', value: 'v' }], 'metadata.bad key'],
    [
      'a 13th metadata key',
      Array.from({ length: 13 }, (_, i) => ({ op: 'add', path: `/metadata/k${i}`, value: 'v' })),
      'metadata',
    ],
  ])('refuses a patch leaving %s with 400 naming the field', async (_name, operations, field) => {
    const before = await createCounterparty(t)
    expectInvalidField(await patch(t, url(before), before.etag, operations), field, 'invalid_patch')
    expect((await t.request({ method: 'GET', url: url(before) })).json()).toEqual(before)
  })

  it('refuses operations that cannot apply (removing an absent alias) with 400', async () => {
    const before = await createCounterparty(t, { alias: undefined })
    expectError(await patch(t, url(before), before.etag, [{ op: 'remove', path: '/alias' }]), 400, 'invalid_patch')
  })

  it('refuses a body that is not a JSON Patch', async () => {
    const before = await createCounterparty(t)
    expectError(await patch(t, url(before), before.etag, []), 400, 'invalid_request')
    expectError(await patch(t, url(before), before.etag, { op: 'replace', path: '/alias', value: 'x' }), 400, 'invalid_request')
  })

  it('needs If-Match (428) and the current etag, verbatim (412)', async () => {
    const before = await createCounterparty(t)
    const operations = [{ op: 'replace', path: '/alias', value: 'x' }]
    const missing = await t.request({ method: 'PATCH', url: url(before), body: operations })
    expectError(missing, 428, 'precondition_required')
    expectError(await patch(t, url(before), '"version:1"', operations), 412, 'precondition_failed')
    expect((await patch(t, url(before), before.etag, operations)).statusCode).toBe(200)
    expectError(await patch(t, url(before), before.etag, operations), 412, 'precondition_failed')
  })

  it('patches through external:{externalId}', async () => {
    const before = await createCounterparty(t, { externalId: 'patch-me' })
    const response = await patch(t, `${COUNTERPARTIES}/external:patch-me`, before.etag, [{ op: 'replace', path: '/alias', value: 'x' }])
    expect(response.json()).toMatchObject({ id: before.id, alias: 'x', version: 2 })
  })
})

describe('DELETE /payments/v2/counterparties/{id}', () => {
  it('answers 204, then 410 on every route, and takes its external accounts along', async () => {
    const org = await t.newOrganization('Deleting')
    const keep = await createCounterparty(t, { legalName: 'Keep' }, org)
    const doomed = await createCounterparty(t, { externalId: 'doomed', accounts: [
      { market: 'DE', externalId: 'doomed-acct', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }] },
    ] }, org)
    const account = doomed.accounts[0]!

    const deleted = await remove(t, url(doomed), doomed.etag, org)
    expect(deleted.statusCode).toBe(204)
    expect(deleted.body).toBe('')

    for (const path of [url(doomed), `${COUNTERPARTIES}/external:doomed`]) {
      expectError(await t.request({ method: 'GET', url: path, as: org }), 410, 'gone')
      expectError(await patch(t, path, 'version:2', [{ op: 'replace', path: '/alias', value: 'x' }], org), 410, 'gone')
      expectError(await remove(t, path, doomed.etag, org), 410, 'gone')
    }
    for (const path of [`${EXTERNAL_ACCOUNTS}/${account.id}`, `${EXTERNAL_ACCOUNTS}/external:doomed-acct`]) {
      expectError(await t.request({ method: 'GET', url: path, as: org }), 410, 'gone')
      expectError(await patch(t, path, 'version:2', [{ op: 'add', path: '/alias', value: 'x' }], org), 410, 'gone')
    }

    expect((await listAll<Counterparty>(t, COUNTERPARTIES, org)).map((item) => item.id)).toEqual([keep.id])
    expect((await listAll(t, EXTERNAL_ACCOUNTS, org)).map((item) => item.id)).toEqual([keep.accounts[0]!.id])
    expect(await listAll(t, `${EXTERNAL_ACCOUNTS}?counterpartyId=${doomed.id}`, org)).toEqual([])
    expect(await listAll(t, `${COUNTERPARTIES}?query=DE89370400`, org)).toEqual([keep])
  })

  it('refuses a stale If-Match with 412 and deletes with the current one', async () => {
    const counterparty = await createCounterparty(t)
    const updated = await patch(t, url(counterparty), counterparty.etag, [{ op: 'replace', path: '/alias', value: 'x' }])
    expectError(await remove(t, url(counterparty), counterparty.etag), 412, 'precondition_failed')
    expect((await t.request({ method: 'GET', url: url(counterparty) })).statusCode).toBe(200)
    const current = await remove(t, url(counterparty), updated.json().etag)
    expect(current.statusCode).toBe(204)
  })

  it('keeps the externalId of a deleted counterparty: reuse is a 409, the lookup stays 410', async () => {
    const counterparty = await createCounterparty(t, { externalId: 'once' })
    expect((await remove(t, url(counterparty), counterparty.etag)).statusCode).toBe(204)
    const reuse = await t.request({ method: 'POST', url: COUNTERPARTIES, body: { legalName: 'Again', externalId: 'once' } })
    expectError(reuse, 409, 'external_id_taken')
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:once` }), 410, 'gone')
  })

  it('answers 404 for an unknown counterparty and 400 for a malformed id', async () => {
    expectError(await remove(t, `${COUNTERPARTIES}/external:never`, 'version:1'), 404, 'not_found')
    expectInvalidField(await remove(t, `${COUNTERPARTIES}/nope`, 'version:1'), 'id')
  })
})

describe('GET /payments/v2/counterparties/{id}/events', () => {
  it('records CREATED, UPDATED and DELETED with sequential ids, versions and the originating user', async () => {
    const admin = await t.newKey('admin')
    const counterparty = await createCounterparty(t)
    await patch(t, url(counterparty), 'version:1', [{ op: 'replace', path: '/alias', value: 'x' }], admin)
    expect((await remove(t, url(counterparty), 'version:2')).statusCode).toBe(204)

    const response = await t.request({ method: 'GET', url: `${url(counterparty)}/events` })
    expect(response.statusCode, response.body).toBe(200)
    const page = response.json()
    const common = { organizationId: t.owner.organizationId, entityId: counterparty.id, timestamp: expect.any(String) }
    expect(page).toEqual({
      items: [
        { ...common, id: 1, type: 'CREATED', name: 'CREATED', entityVersion: 1, originator: t.owner.userId },
        { ...common, id: 2, type: 'UPDATED', name: 'UPDATED', entityVersion: 2, originator: admin.userId },
        { ...common, id: 3, type: 'DELETED', name: 'DELETED', entityVersion: 3, originator: t.owner.userId },
      ],
      nextToken: '',
      token: '',
      limit: 100,
    })
    const times = page.items.map((event: { timestamp: string }) => event.timestamp)
    expect([...times].sort()).toEqual(times)
  })

  it('pages oldest first, also by external:{externalId}', async () => {
    const counterparty = await createCounterparty(t, { externalId: 'evented' })
    let etag = counterparty.etag
    for (const alias of ['a', 'b', 'c']) {
      etag = (await patch(t, url(counterparty), etag, [{ op: 'replace', path: '/alias', value: alias }])).json().etag
    }
    const first = (await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:evented/events?limit=3` })).json()
    expect(first.items.map((event: { id: number }) => event.id)).toEqual([1, 2, 3])
    const second = (await t.request({ method: 'GET', url: `${url(counterparty)}/events?limit=3&token=${first.nextToken}` })).json()
    expect(second.items.map((event: { entityVersion: number }) => event.entityVersion)).toEqual([4])
    expect(second.nextToken).toBe('')
  })

  it('answers 404 for an unknown counterparty', async () => {
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:never/events` }), 404, 'not_found')
  })
})
