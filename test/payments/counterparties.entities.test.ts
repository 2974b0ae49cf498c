import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEntity, entitiesOf } from '../financial-data/entity-helpers.js'
import { counterpartyBody, externalAccountBody, IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { COUNTERPARTIES, EXTERNAL_ACCOUNTS, createCounterparty, expectError, expectInvalidField, listAll, patch, remove } from './payments-helpers.js'

/**
 * Issue 13: a counterparty may be scoped to entities of the organization (reference §2.5 entityIds: none for the
 * whole organization), each a live entity of the organization; on create and by PATCH. Its external accounts
 * inherit them, read-only (reference §2.6).
 */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

describe('entityIds', () => {
  it('scopes a counterparty to entities on create, shown on create, get and list; none shown when unscoped', async () => {
    const [first] = await entitiesOf(t)
    const second = await createEntity(t, { legalName: 'Scope AB' })
    const scoped = await createCounterparty(t, { entityIds: [second.id.toUpperCase(), first!.id] })
    expect(scoped.entityIds).toEqual([second.id, first!.id])
    expect((await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${scoped.id}` })).json()).toEqual(scoped)
    const listed = (await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=500` })).json<{ items: { id: string }[] }>().items
    expect(listed.find((item) => item.id === scoped.id)).toEqual(scoped)
    expect(await createCounterparty(t, { entityIds: [] })).not.toHaveProperty('entityIds')
    expect(await createCounterparty(t)).not.toHaveProperty('entityIds')
  })

  it('filters counterparties and external accounts by entityIdsIn: scoped to any of them; the whole-organization ones do not match', async () => {
    const org = await t.newOrganization('Filter Scope AB')
    const [first] = await entitiesOf(t, org)
    const second = await createEntity(t, { legalName: 'Filter Scope Two AB' }, org)
    const third = await createEntity(t, { legalName: 'Filter Scope Three AB' }, org)
    const onFirst = await createCounterparty(t, { entityIds: [first!.id] }, org)
    const onBoth = await createCounterparty(t, { entityIds: [second.id, first!.id] }, org)
    await createCounterparty(t, {}, org)
    const ids = (items: Array<{ id: string }>) => items.map((item) => item.id).sort()

    expect(ids(await listAll(t, `${COUNTERPARTIES}?entityIdsIn=${first!.id}`, org))).toEqual(ids([onFirst, onBoth]))
    expect(ids(await listAll(t, `${COUNTERPARTIES}?entityIdsIn=${second.id.toUpperCase()}`, org))).toEqual([onBoth.id])
    expect(ids(await listAll(t, `${COUNTERPARTIES}?entityIdsIn=${third.id}&entityIdsIn=${second.id}`, org))).toEqual([onBoth.id])
    expect(await listAll(t, `${COUNTERPARTIES}?entityIdsIn=${third.id}`, org)).toEqual([])
    const accounts = await listAll<{ id: string; counterpartyId: string }>(t, `${EXTERNAL_ACCOUNTS}?entityIdsIn=${second.id}`, org)
    expect(accounts.map((account) => account.counterpartyId)).toEqual(onBoth.accounts.map(() => onBoth.id))
    expect((await listAll(t, `${EXTERNAL_ACCOUNTS}?entityIdsIn=${first!.id}`, org)).length).toBe(onFirst.accounts.length + onBoth.accounts.length)
    // A page token stays bound to its filter.
    const page = (await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=1&entityIdsIn=${first!.id}`, as: org })).json()
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=1&entityIdsIn=${second.id}&token=${page.nextToken}`, as: org }), 400, 'invalid_token')
    expectInvalidField(await t.request({ method: 'GET', url: `${COUNTERPARTIES}?entityIdsIn=acme`, as: org }), 'entityIdsIn.0')
  })

  it('refuses an id that is no live entity of the organization, a repeated one, or one that is no UUID: 400', async () => {
    const [theirs] = await entitiesOf(t, await t.newOrganization('Other Scope AB'))
    const gone = await createEntity(t, { legalName: 'Gone Scope AB' })
    expect((await remove(t, `/financial-data/v2/entities/${gone.id}`, gone.etag)).statusCode).toBe(204)
    for (const entityIds of [[theirs!.id], [gone.id], ['01900000-0000-7000-8000-000000000000']]) {
      expectInvalidField(await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ entityIds, externalId: 'never-made' }) }), 'entityIds')
    }
    const [mine] = await entitiesOf(t)
    expectInvalidField(await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ entityIds: [mine!.id, mine!.id] }) }), 'entityIds')
    expectInvalidField(await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody({ entityIds: ['acme'] }) }), 'entityIds.0')
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:never-made` }), 404, 'not_found')
  })

  it('adds, replaces and removes them by PATCH, each entity checked', async () => {
    const [first] = await entitiesOf(t)
    const other = await createEntity(t, { legalName: 'Patch Scope AB' })
    const counterparty = await createCounterparty(t)
    const url = `${COUNTERPARTIES}/${counterparty.id}`
    const added = await patch(t, url, counterparty.etag, [{ op: 'add', path: '/entityIds', value: [first!.id] }])
    expect(added.statusCode, added.body).toBe(200)
    expect(added.json()).toMatchObject({ entityIds: [first!.id], version: 2 })
    const replaced = await patch(t, url, added.json().etag, [{ op: 'replace', path: '/entityIds', value: [first!.id, other.id] }])
    expect(replaced.json().entityIds).toEqual([first!.id, other.id])
    const [theirs] = await entitiesOf(t, await t.newOrganization('Patch Stranger AB'))
    expectInvalidField(await patch(t, url, replaced.json().etag, [{ op: 'replace', path: '/entityIds', value: [theirs!.id] }]), 'entityIds')
    const removed = await patch(t, url, replaced.json().etag, [{ op: 'remove', path: '/entityIds' }])
    expect(removed.statusCode, removed.body).toBe(200)
    expect(removed.json()).not.toHaveProperty('entityIds')
    expect((await t.request({ method: 'GET', url })).json()).toEqual(removed.json())
  })

  it("shows the counterparty's entityIds on its external accounts, wherever they are read, and only there to change", async () => {
    const [first] = await entitiesOf(t)
    const counterparty = await createCounterparty(t, { entityIds: [first!.id] })
    const [embedded] = counterparty.accounts
    expect(embedded!.entityIds).toEqual([first!.id])
    const url = `${EXTERNAL_ACCOUNTS}/${embedded!.id}`
    expect((await t.request({ method: 'GET', url })).json()).toEqual(embedded)
    expect((await listAll(t, `${EXTERNAL_ACCOUNTS}?counterpartyId=${counterparty.id}`)).map((account) => account.entityIds)).toEqual([[first!.id]])
    const added = await t.request({ method: 'POST', url: EXTERNAL_ACCOUNTS, body: externalAccountBody(counterparty.id, { market: 'FR', identifiers: [{ market: 'FR', type: 'IBAN', number: IBANS.fr }] }) })
    expect(added.statusCode, added.body).toBe(201)
    expect(added.json().entityIds).toEqual([first!.id])
    expectError(await patch(t, url, embedded!.etag, [{ op: 'replace', path: '/entityIds', value: [] }]), 400, 'invalid_patch')
    const current = (await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })).json()
    const unscoped = await patch(t, `${COUNTERPARTIES}/${counterparty.id}`, current.etag, [{ op: 'remove', path: '/entityIds' }])
    expect(unscoped.statusCode, unscoped.body).toBe(200)
    expect(unscoped.json().accounts.map((account: object) => 'entityIds' in account)).toEqual([false, false])
    expect((await t.request({ method: 'GET', url })).json()).not.toHaveProperty('entityIds')
  })
})
