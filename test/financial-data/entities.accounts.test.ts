import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Account } from '../../src/financial-data/accounts/index.js'
import type { Credentials } from '../../src/iam/index.js'
import { createConnection } from '../connectivity/connection-helpers.js'
import { expectError, expectInvalidField, listAll, patch, remove } from '../payments/payments-helpers.js'
import { IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { ACCOUNTS, ENTITIES, createEntity, entitiesOf, ownAccountBody } from './entity-helpers.js'

/**
 * Issue 13: every account belongs to an entity (reference §2.2 entityId) and names its third party (thirdPartyId:
 * its bank connection), the entity's affiliation with it (affiliationId) and its bank's routing; an entity keeps
 * what names it from dangling (accounts, child entities, counterparties scoped to it: 409 on DELETE).
 */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

async function register(as: Credentials, overrides: Record<string, unknown> = {}): Promise<Account> {
  const response = await t.request({ method: 'POST', url: ACCOUNTS, body: ownAccountBody(overrides), as })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<Account>()
}

describe("a sandbox organization's accounts", () => {
  it("belong to its first entity and are held through the sandbox bank's own SANDBOX connection", async () => {
    const org = await t.newOrganization('Sandbox Owner AB')
    const [entity] = await entitiesOf(t, org)
    const accounts = await listAll<Account>(t, ACCOUNTS, org)
    expect(accounts).toHaveLength(3)
    const [thirdPartyId] = new Set(accounts.map((account) => account.thirdPartyId))
    for (const account of accounts) {
      expect(account).toMatchObject({ entityId: entity!.id, thirdPartyId, affiliationId: accounts[0]!.affiliationId })
      expect(account.routing).toEqual([{ type: 'BIC', number: account.bank.bic }])
    }
    expect(accounts.map((account) => account.routing[0]!.number)).toEqual(['KASADEFFXXX', 'KASADEFFXXX', 'KASASESSXXX'])
    const connection = await t.request({ method: 'GET', url: `/connectivity/v2/connections/${thirdPartyId}`, as: org })
    expect(connection.statusCode, connection.body).toBe(200)
    expect(connection.json()).toMatchObject({ type: 'SANDBOX', simulatedBank: false, bank: { name: 'Kassa Testbank', bic: 'KASADEFFXXX' } })
    expect(accounts[0]!.affiliationId).toMatch(UUID)
    expect(accounts[0]!.affiliationId).not.toBe(thirdPartyId)
    expect(accounts[0]!.affiliationId).not.toBe(entity!.id)
  })

  it('keep their SANDBOX connection, which cannot be deleted while they use it', async () => {
    const org = await t.newOrganization('Keeps Connection AB')
    const [account] = await listAll<Account>(t, ACCOUNTS, org)
    const url = `/connectivity/v2/connections/${account!.thirdPartyId}`
    const connection = (await t.request({ method: 'GET', url, as: org })).json<{ etag: string }>()
    expectError(await remove(t, url, connection.etag, org), 409, 'conflict')
  })
})

describe('registered accounts', () => {
  it("belong to the organization's default entity (its first) unless the request names one", async () => {
    const org = await t.newOrganization('Default Entity AB')
    const [first] = await entitiesOf(t, org)
    const later = await createEntity(t, { legalName: 'Later AB' }, org)
    const defaulted = await register(org)
    expect(defaulted.entityId).toBe(first!.id)
    const named = await register(org, { identifiers: [{ market: 'NL', type: 'IBAN', number: IBANS.nl }], market: 'NL', entityId: later.id.toUpperCase() })
    expect(named.entityId).toBe(later.id)
    expect((await listAll<Account>(t, `${ACCOUNTS}?entityId=${later.id}`, org)).map((account) => account.id)).toEqual([named.id])
  })

  it('default to the oldest live entity without a parent once the first is gone', async () => {
    const org = await t.newOrganization('Next Default AB')
    const [first] = await entitiesOf(t, org)
    const older = await createEntity(t, { legalName: 'Older, below Newer' }, org)
    const newer = await createEntity(t, { legalName: 'Newer AB' }, org)
    expect((await patch(t, `${ENTITIES}/${older.id}`, older.etag, [{ op: 'add', path: '/parentId', value: newer.id }], org)).statusCode).toBe(200)
    for (const account of await listAll<Account>(t, ACCOUNTS, org)) {
      expect((await patch(t, `${ACCOUNTS}/${account.id}`, account.etag, [{ op: 'replace', path: '/entityId', value: newer.id }], org)).statusCode).toBe(200)
    }
    expect((await remove(t, `${ENTITIES}/${first!.id}`, first!.etag, org)).statusCode).toBe(204)
    expect((await register(org)).entityId).toBe(newer.id)
  })

  it("refuse an entityId that is not one of the organization's live entities: 400 naming entityId", async () => {
    const org = await t.newOrganization('Invalid Entity AB')
    const stranger = await t.newOrganization('Other Entity AB')
    const [theirs] = await entitiesOf(t, stranger)
    for (const entityId of [theirs!.id, '01900000-0000-7000-8000-000000000000']) {
      expectInvalidField(await t.request({ method: 'POST', url: ACCOUNTS, body: ownAccountBody({ entityId }), as: org }), 'entityId')
    }
    expectInvalidField(await t.request({ method: 'POST', url: ACCOUNTS, body: ownAccountBody({ entityId: 'first' }), as: org }), 'entityId')
    expect(await listAll<Account>(t, ACCOUNTS, org)).toHaveLength(3)
  })

  it('name their bank as third party: the FILES connection they are on, else an id of the bank shared by its accounts', async () => {
    const org = await t.newOrganization('Third Parties AB')
    const [entity] = await entitiesOf(t, org)
    const connection = await createConnection(t, {}, org)
    const onConnection = await register(org, { connectionId: connection.id })
    expect(onConnection).toMatchObject({ thirdPartyId: connection.id, routing: [{ type: 'BIC', number: 'BYLADEM1001' }] })
    const [statementsOnly, sameBank, otherBank, noBic] = [
      await register(org, { identifiers: [{ market: 'NL', type: 'IBAN', number: IBANS.nl }], market: 'NL' }),
      await register(org, { identifiers: [{ market: 'FR', type: 'IBAN', number: IBANS.fr }], market: 'FR' }),
      await register(org, { identifiers: [{ market: 'GB', type: 'IBAN', number: IBANS.gb }], market: 'GB', bank: { name: 'NatWest', bic: 'NWBKGB2L' } }),
      await register(org, { identifiers: [{ market: 'SE', type: 'IBAN', number: IBANS.se }], market: 'SE', currency: 'SEK', bank: { name: 'Swedbank' } }),
    ]
    expect(statementsOnly.thirdPartyId).toMatch(UUID)
    expect(statementsOnly.thirdPartyId).not.toBe(connection.id)
    expect(sameBank.thirdPartyId).toBe(statementsOnly.thirdPartyId)
    expect(sameBank.affiliationId).toBe(statementsOnly.affiliationId)
    expect(otherBank.thirdPartyId).not.toBe(statementsOnly.thirdPartyId)
    expect(otherBank.affiliationId).not.toBe(statementsOnly.affiliationId)
    expect(noBic.routing).toEqual([])
    expect(noBic.thirdPartyId).toMatch(UUID)
    for (const account of [onConnection, statementsOnly, otherBank, noBic]) expect(account.entityId).toBe(entity!.id)
    // The same bank of another organization is another third party of that organization.
    const elsewhere = await register(await t.newOrganization('Elsewhere AB'), { identifiers: [{ market: 'NL', type: 'IBAN', number: IBANS.nl }], market: 'NL' })
    expect(elsewhere.thirdPartyId).not.toBe(statementsOnly.thirdPartyId)
  })
})

describe('PATCH replace /entityId', () => {
  it("moves an account to another entity of the organization, and with it the account's affiliation", async () => {
    const org = await t.newOrganization('Moving AB')
    const [account] = await listAll<Account>(t, ACCOUNTS, org)
    const target = await createEntity(t, { legalName: 'Target AB' }, org)
    const moved = await patch(t, `${ACCOUNTS}/${account!.id}`, account!.etag, [{ op: 'replace', path: '/entityId', value: target.id }], org)
    expect(moved.statusCode, moved.body).toBe(200)
    expect(moved.json()).toMatchObject({ entityId: target.id, thirdPartyId: account!.thirdPartyId, version: account!.version + 1 })
    expect(moved.json().affiliationId).not.toBe(account!.affiliationId)
    expect((await t.request({ method: 'GET', url: `${ACCOUNTS}/${account!.id}`, as: org })).json()).toEqual(moved.json())
  })

  it("refuses an entity that is not one of the organization's live ones, and every other operation on entityId", async () => {
    const org = await t.newOrganization('Not Moving AB')
    const [account] = await listAll<Account>(t, ACCOUNTS, org)
    const url = `${ACCOUNTS}/${account!.id}`
    const [theirs] = await entitiesOf(t, await t.newOrganization('Not Yours AB'))
    expectInvalidField(await patch(t, url, account!.etag, [{ op: 'replace', path: '/entityId', value: theirs!.id }], org), 'entityId')
    expectInvalidField(await patch(t, url, account!.etag, [{ op: 'replace', path: '/entityId', value: '01900000-0000-7000-8000-000000000000' }], org), 'entityId')
    expectError(await patch(t, url, account!.etag, [{ op: 'replace', path: '/entityId', value: 'nobody' }], org), 400, 'invalid_patch')
    expectError(await patch(t, url, account!.etag, [{ op: 'remove', path: '/entityId' }], org), 400, 'invalid_patch')
    expect((await t.request({ method: 'GET', url, as: org })).json()).toEqual(account)
  })
})

describe('an entity in use cannot be deleted: 409', () => {
  it('while accounts belong to it, until they are moved', async () => {
    const org = await t.newOrganization('In Use AB')
    const [first] = await entitiesOf(t, org)
    const other = await createEntity(t, { legalName: 'Other AB' }, org)
    const refused = expectError(await remove(t, `${ENTITIES}/${first!.id}`, first!.etag, org), 409, 'conflict')
    expect(refused.message).toContain('Accounts')
    expect((await t.request({ method: 'GET', url: `${ENTITIES}/${first!.id}`, as: org })).json()).toEqual(first)
    for (const account of await listAll<Account>(t, ACCOUNTS, org)) {
      expect((await patch(t, `${ACCOUNTS}/${account.id}`, account.etag, [{ op: 'replace', path: '/entityId', value: other.id }], org)).statusCode).toBe(200)
    }
    expect((await remove(t, `${ENTITIES}/${first!.id}`, first!.etag, org)).statusCode).toBe(204)
  })

  it('while child entities name it as their parent', async () => {
    const parent = await createEntity(t, { legalName: 'Parent AB' })
    const child = await createEntity(t, { legalName: 'Child AB', parentId: parent.id })
    expect(expectError(await remove(t, `${ENTITIES}/${parent.id}`, parent.etag), 409, 'conflict').message).toContain('parent')
    expect((await remove(t, `${ENTITIES}/${child.id}`, child.etag)).statusCode).toBe(204)
    expect((await remove(t, `${ENTITIES}/${parent.id}`, parent.etag)).statusCode).toBe(204)
  })

  it('while counterparties are scoped to it', async () => {
    const scope = await createEntity(t, { legalName: 'Scoped AB' })
    const created = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: { legalName: 'Supplier', entityIds: [scope.id] } })
    expect(created.statusCode, created.body).toBe(201)
    expect(expectError(await remove(t, `${ENTITIES}/${scope.id}`, scope.etag), 409, 'conflict').message).toContain('entityIds')
    const counterparty = created.json<{ id: string; etag: string }>()
    expect((await patch(t, `/payments/v2/counterparties/${counterparty.id}`, counterparty.etag, [{ op: 'remove', path: '/entityIds' }])).statusCode).toBe(200)
    expect((await remove(t, `${ENTITIES}/${scope.id}`, scope.etag)).statusCode).toBe(204)
  })

  it('an account registered while its entity is deleted: one of the two wins, and no account names a deleted entity', async () => {
    for (let round = 0; round < 4; round++) {
      const org = await t.newOrganization(`Racing ${round} AB`)
      const entity = await createEntity(t, { legalName: 'Contested AB' }, org)
      const [registered, deleted] = await Promise.all([
        t.request({ method: 'POST', url: ACCOUNTS, body: ownAccountBody({ entityId: entity.id }), as: org }),
        remove(t, `${ENTITIES}/${entity.id}`, entity.etag, org),
      ])
      if (registered.statusCode === 201) {
        expect(deleted.statusCode, deleted.body).toBe(409)
        expect((await t.request({ method: 'GET', url: `${ENTITIES}/${entity.id}`, as: org })).statusCode).toBe(200)
      } else {
        expect(deleted.statusCode, deleted.body).toBe(204)
        expectInvalidField(registered, 'entityId')
      }
    }
  })
})
