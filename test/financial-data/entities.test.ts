import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Entity } from '../../src/financial-data/entities/index.js'
import { expectError, expectInvalidField, listAll, patch, remove } from '../payments/payments-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { ENTITIES, createEntity, entitiesOf } from './entity-helpers.js'

/**
 * Issue 13: `/financial-data/v2/entities` (reference §2.10) with the conventions of every resource: create, get by
 * id and external:{externalId}, list with cursors, JSON Patch with If-Match, delete with If-Match and 410 after,
 * events, permissions, tenancy; parents without cycles; a sandbox organization's first entity. What may not be
 * deleted, and accounts' entities: entities.usage.test.ts.
 */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const FULL = {
  legalName: 'Acme Nordics AB',
  nationalIdentifier: { type: 'COMPANY', market: 'SE', number: '5561234567' },
  address: { country: 'SE', city: 'Stockholm', postalCode: '11122', streetName: 'Drottninggatan', streetNumber: '7' },
  externalId: 'acme-nordics',
  metadata: { companyCode: '20' },
}

describe('a sandbox organization', () => {
  it('starts with one entity, named as the organization', async () => {
    const org = await t.newOrganization('Gadget Works GmbH')
    expect(await entitiesOf(t, org)).toEqual([
      {
        id: expect.any(String),
        organizationId: org.organizationId,
        legalName: 'Gadget Works GmbH',
        metadata: {},
        version: 1,
        etag: 'version:1',
        created: expect.any(String),
        updated: expect.any(String),
      },
    ])
  })
})

describe('creating and reading', () => {
  it('creates an entity with only a legal name', async () => {
    const created = await createEntity(t, { legalName: 'Acme Holding GmbH' })
    expect(created).toEqual({
      id: expect.any(String),
      organizationId: t.owner.organizationId,
      legalName: 'Acme Holding GmbH',
      metadata: {},
      version: 1,
      etag: 'version:1',
      created: expect.any(String),
      updated: created.created,
    })
  })

  it('keeps every field given, and reads it back by id, by external:{externalId}, in the list and in its CREATED event', async () => {
    const parent = await createEntity(t, { legalName: 'Acme Group' })
    const created = await createEntity(t, { ...FULL, parentId: parent.id })
    expect(created).toMatchObject({ ...FULL, parentId: parent.id, version: 1 })
    expect((await t.request({ method: 'GET', url: `${ENTITIES}/${created.id}` })).json()).toEqual(created)
    expect((await t.request({ method: 'GET', url: `${ENTITIES}/external:acme-nordics` })).json()).toEqual(created)
    expect(await listAll<Entity>(t, ENTITIES)).toContainEqual(created)
    const events = (await t.request({ method: 'GET', url: `${ENTITIES}/${created.id}/events` })).json()
    expect(events.items).toEqual([expect.objectContaining({ id: 1, type: 'CREATED', name: 'CREATED', originator: t.owner.userId, entityVersion: 1 })])
  })

  it('lists oldest first, page by page, filtered by parentId, and refuses a token made under another filter', async () => {
    const org = await t.newOrganization('Paging AB')
    const [first] = await entitiesOf(t, org)
    const children = [await createEntity(t, { legalName: 'Child 1', parentId: first!.id }, org), await createEntity(t, { legalName: 'Child 2', parentId: first!.id }, org)]
    await createEntity(t, { legalName: 'Unrelated' }, org)
    const page = await t.request({ method: 'GET', url: `${ENTITIES}?limit=2`, as: org })
    expect(page.json()).toMatchObject({ limit: 2, token: '', items: [{ id: first!.id }, { id: children[0]!.id }] })
    const nextToken = page.json().nextToken as string
    const second = await t.request({ method: 'GET', url: `${ENTITIES}?limit=2&token=${nextToken}`, as: org })
    expect(second.json().items.map((entity: Entity) => entity.legalName)).toEqual(['Child 2', 'Unrelated'])
    expectError(await t.request({ method: 'GET', url: `${ENTITIES}?limit=2&parentId=${first!.id}&token=${nextToken}`, as: org }), 400, 'invalid_token')
    expect((await listAll<Entity>(t, `${ENTITIES}?parentId=${first!.id}`, org)).map((entity) => entity.id)).toEqual(children.map((child) => child.id))
  })
})

describe('an equivalent entity (reference: POST answers 200 with the one that exists)', () => {
  it('answers 200 with the existing entity, creating nothing and recording no event, when every field is the same', async () => {
    const org = await t.newOrganization('Equivalence AB')
    const [root] = await entitiesOf(t, org)
    const body = { ...FULL, externalId: undefined, parentId: root!.id.toUpperCase(), metadata: { b: '2', a: '1' } }
    const first = await t.request({ method: 'POST', url: ENTITIES, body, as: org })
    expect(first.statusCode, first.body).toBe(201)
    // The same fields, the JSON objects' keys in another order.
    const again = await t.request({ method: 'POST', url: ENTITIES, body: { ...body, metadata: { a: '1', b: '2' }, address: { ...FULL.address } }, as: org })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json()).toEqual(first.json())
    expect(await entitiesOf(t, org)).toHaveLength(2)
    const events = (await t.request({ method: 'GET', url: `${ENTITIES}/${first.json().id}/events`, as: org })).json()
    expect(events.items).toHaveLength(1)
  })

  it.each([
    ['another legal name', { legalName: 'Acme Nordics Holding AB' }],
    ['a field the entity lacks', { address: { country: 'SE' } }],
    ['a field left out that the entity has', { nationalIdentifier: undefined }],
    ['other metadata', { metadata: { companyCode: '21' } }],
  ])('creates a second entity (201) when the request differs by %s', async (_name, overrides) => {
    const org = await t.newOrganization('Difference AB')
    const base = { legalName: FULL.legalName, nationalIdentifier: FULL.nationalIdentifier, metadata: FULL.metadata }
    expect((await t.request({ method: 'POST', url: ENTITIES, body: base, as: org })).statusCode).toBe(201)
    const other = await t.request({ method: 'POST', url: ENTITIES, body: { ...base, ...overrides }, as: org })
    expect(other.statusCode, other.body).toBe(201)
    expect(await entitiesOf(t, org)).toHaveLength(3)
  })

  it('stores the 200 for the Idempotency-Key: a retry answers 200 with the same body', async () => {
    const org = await t.newOrganization('Stored Answer AB')
    const body = { legalName: 'Stored Answer Nordics AB' }
    expect((await t.request({ method: 'POST', url: ENTITIES, body, as: org })).statusCode).toBe(201)
    const headers = { 'idempotency-key': 'equivalent-entity-1' }
    const found = await t.request({ method: 'POST', url: ENTITIES, body, as: org, headers })
    const replayed = await t.request({ method: 'POST', url: ENTITIES, body, as: org, headers })
    expect([found.statusCode, replayed.statusCode]).toEqual([200, 200])
    expect(replayed.body).toBe(found.body)
  })
})

describe('validation: 400 naming the field', () => {
  it.each([
    ['no legal name', { legalName: undefined }, 'legalName'],
    ['an empty legal name', { legalName: '' }, 'legalName'],
    ['a legal name over 255 characters', { legalName: 'x'.repeat(256) }, 'legalName'],
    ['a national identifier of an unknown type', { nationalIdentifier: { type: 'TAX', market: 'SE', number: '1' } }, 'nationalIdentifier.type'],
    ['an address with an unknown field', { address: { town: 'Malmö' } }, 'address.town'],
    ['a parentId that is no UUID', { parentId: 'acme' }, 'parentId'],
    ['a parentId naming no entity', { parentId: '01900000-0000-7000-8000-000000000000' }, 'parentId'],
    ['an unknown field', { name: 'Acme' }, 'name'],
  ])('refuses %s', async (_name, overrides, field) => {
    const org = await t.newOrganization('Validation AB')
    const response = await t.request({ method: 'POST', url: ENTITIES, body: { ...FULL, ...overrides }, as: org })
    expectInvalidField(response, field)
    expect(await entitiesOf(t, org)).toHaveLength(1)
  })

  it("refuses another organization's entity as parent, as one that does not exist", async () => {
    const stranger = await t.newOrganization('Stranger AB')
    const [theirs] = await entitiesOf(t, stranger)
    expectInvalidField(await t.request({ method: 'POST', url: ENTITIES, body: { legalName: 'Mine', parentId: theirs!.id } }), 'parentId')
  })

  it('refuses an externalId already used by an entity of the organization: 409', async () => {
    await createEntity(t, { externalId: 'taken-entity' })
    expectError(await t.request({ method: 'POST', url: ENTITIES, body: { legalName: 'Again', externalId: 'taken-entity' } }), 409, 'external_id_taken')
  })
})

describe('PATCH', () => {
  it('replaces the legal name, adds and removes optional fields and metadata, with If-Match; each change an event', async () => {
    const created = await createEntity(t, { legalName: 'Patchable AB' })
    const operations = [
      { op: 'replace', path: '/legalName', value: 'Patched AB' },
      { op: 'add', path: '/nationalIdentifier', value: FULL.nationalIdentifier },
      { op: 'add', path: '/address', value: FULL.address },
      { op: 'add', path: '/metadata/companyCode', value: '21' },
    ]
    const patched = await patch(t, `${ENTITIES}/${created.id}`, created.etag, operations)
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json()).toMatchObject({ legalName: 'Patched AB', nationalIdentifier: FULL.nationalIdentifier, address: FULL.address, metadata: { companyCode: '21' }, version: 2, etag: 'version:2' })
    const removed = await patch(t, `${ENTITIES}/${created.id}`, 'version:2', [{ op: 'remove', path: '/address' }, { op: 'remove', path: '/metadata/companyCode' }])
    expect(removed.json()).not.toHaveProperty('address')
    expect(removed.json().metadata).toEqual({})
    expect((await t.request({ method: 'GET', url: `${ENTITIES}/${created.id}` })).json()).toEqual(removed.json())
    const events = (await t.request({ method: 'GET', url: `${ENTITIES}/${created.id}/events` })).json()
    expect(events.items.map((event: { type: string; entityVersion: number }) => [event.type, event.entityVersion])).toEqual([['CREATED', 1], ['UPDATED', 2], ['UPDATED', 3]])
  })

  it('needs If-Match: 428 without, 412 when stale; refuses what the rules do not allow', async () => {
    const created = await createEntity(t, { legalName: 'Strict AB', externalId: 'strict-ab' })
    const url = `${ENTITIES}/${created.id}`
    expectError(await t.request({ method: 'PATCH', url, body: [{ op: 'replace', path: '/legalName', value: 'X' }] }), 428, 'precondition_required')
    expectError(await patch(t, url, 'version:9', [{ op: 'replace', path: '/legalName', value: 'X' }]), 412, 'precondition_failed')
    expectError(await patch(t, url, created.etag, [{ op: 'replace', path: '/externalId', value: 'other' }]), 400, 'invalid_patch')
    expectError(await patch(t, url, created.etag, [{ op: 'remove', path: '/legalName' }]), 400, 'invalid_patch')
    expectError(await patch(t, url, created.etag, [{ op: 'replace', path: '/legalName', value: '' }]), 400, 'invalid_patch')
    expect((await t.request({ method: 'GET', url })).json()).toEqual(created)
  })

  it('moves an entity under another parent, and out from under it', async () => {
    const group = await createEntity(t, { legalName: 'Group' })
    const child = await createEntity(t, { legalName: 'Child' })
    const moved = await patch(t, `${ENTITIES}/${child.id}`, child.etag, [{ op: 'add', path: '/parentId', value: group.id.toUpperCase() }])
    expect(moved.statusCode, moved.body).toBe(200)
    expect(moved.json().parentId).toBe(group.id)
    const freed = await patch(t, `${ENTITIES}/${child.id}`, moved.json().etag, [{ op: 'remove', path: '/parentId' }])
    expect(freed.json()).not.toHaveProperty('parentId')
  })

  it('refuses a parent that would make a cycle, or that is no live entity of the organization', async () => {
    const top = await createEntity(t, { legalName: 'Top' })
    const middle = await createEntity(t, { legalName: 'Middle', parentId: top.id })
    const bottom = await createEntity(t, { legalName: 'Bottom', parentId: middle.id })
    const url = `${ENTITIES}/${top.id}`
    for (const parentId of [top.id, middle.id, bottom.id]) {
      const refused = expectInvalidField(await patch(t, url, top.etag, [{ op: 'add', path: '/parentId', value: parentId }]), 'parentId')
      expect(refused.details).toContainEqual(expect.objectContaining({ code: 'cycle' }))
    }
    const stranger = await t.newOrganization('Cycle stranger AB')
    const [theirs] = await entitiesOf(t, stranger)
    expectInvalidField(await patch(t, url, top.etag, [{ op: 'add', path: '/parentId', value: theirs!.id }]), 'parentId')
    const gone = await createEntity(t, { legalName: 'Gone' })
    expect((await remove(t, `${ENTITIES}/${gone.id}`, gone.etag)).statusCode).toBe(204)
    expectInvalidField(await patch(t, url, top.etag, [{ op: 'add', path: '/parentId', value: gone.id }]), 'parentId')
    expect((await t.request({ method: 'GET', url })).json()).toEqual(top)
  })

  it('keeps the tree free of cycles when two re-parentings race', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await createEntity(t, { legalName: `Race A ${round}` })
      const b = await createEntity(t, { legalName: `Race B ${round}` })
      const [first, second] = await Promise.all([
        patch(t, `${ENTITIES}/${a.id}`, a.etag, [{ op: 'add', path: '/parentId', value: b.id }]),
        patch(t, `${ENTITIES}/${b.id}`, b.etag, [{ op: 'add', path: '/parentId', value: a.id }]),
      ])
      expect([first.statusCode, second.statusCode].sort(), `${first.body} ${second.body}`).toEqual([200, 400])
    }
  })
})

describe('DELETE', () => {
  it('deletes with If-Match: 204, then 410 on every route but events, which keep the history', async () => {
    const created = await createEntity(t, { legalName: 'Short-lived AB', externalId: 'short-lived' })
    const url = `${ENTITIES}/${created.id}`
    expectError(await t.request({ method: 'DELETE', url }), 428, 'precondition_required')
    expectError(await remove(t, url, 'version:2'), 412, 'precondition_failed')
    expect((await remove(t, `${ENTITIES}/external:short-lived`, created.etag)).statusCode).toBe(204)
    expectError(await t.request({ method: 'GET', url }), 410, 'gone')
    expectError(await t.request({ method: 'GET', url: `${ENTITIES}/external:short-lived` }), 410, 'gone')
    expectError(await patch(t, url, 'version:2', [{ op: 'replace', path: '/legalName', value: 'Back' }]), 410, 'gone')
    expectError(await remove(t, url, 'version:2'), 410, 'gone')
    expect((await listAll<Entity>(t, ENTITIES)).map((entity) => entity.id)).not.toContain(created.id)
    const events = (await t.request({ method: 'GET', url: `${url}/events` })).json()
    expect(events.items.map((event: { type: string }) => event.type)).toEqual(['CREATED', 'DELETED'])
  })
})

describe('authorization and tenancy', () => {
  it('lets read-only read but not write: 403', async () => {
    const readOnly = await t.newKey('read-only')
    const created = await createEntity(t, { legalName: 'Guarded AB' })
    expect((await t.request({ method: 'GET', url: `${ENTITIES}/${created.id}`, as: readOnly })).statusCode).toBe(200)
    expectError(await t.request({ method: 'POST', url: ENTITIES, body: { legalName: 'No' }, as: readOnly }), 403, 'forbidden')
    expectError(await patch(t, `${ENTITIES}/${created.id}`, created.etag, [{ op: 'replace', path: '/legalName', value: 'No' }], readOnly), 403, 'forbidden')
    expectError(await remove(t, `${ENTITIES}/${created.id}`, created.etag, readOnly), 403, 'forbidden')
  })

  it('hides an entity from other organizations: 404 on every route, absent from their list', async () => {
    const mine = await createEntity(t, { legalName: 'Private AB', externalId: 'private-ab' })
    const stranger = await t.newOrganization('Curious AB')
    for (const ref of [mine.id, 'external:private-ab']) {
      expectError(await t.request({ method: 'GET', url: `${ENTITIES}/${ref}`, as: stranger }), 404, 'not_found')
      expectError(await t.request({ method: 'GET', url: `${ENTITIES}/${ref}/events`, as: stranger }), 404, 'not_found')
      expectError(await patch(t, `${ENTITIES}/${ref}`, mine.etag, [{ op: 'replace', path: '/legalName', value: 'Mine now' }], stranger), 404, 'not_found')
      expectError(await remove(t, `${ENTITIES}/${ref}`, mine.etag, stranger), 404, 'not_found')
    }
    expect((await entitiesOf(t, stranger)).map((entity) => entity.legalName)).toEqual(['Curious AB'])
    expect((await t.request({ method: 'GET', url: `${ENTITIES}/${mine.id}` })).json()).toEqual(mine)
  })
})
