import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, expectInvalidField } from '../payments/payments-helpers.js'
import { IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CONNECTIONS, createConnection } from './connection-helpers.js'

/**
 * Issue 12: an own account registered with `connectionId` names its bank connection (the reference's
 * `thirdPartyId`): a FILES connection of the same organization; such a connection cannot be deleted.
 * Issue 13: every account has a thirdPartyId (test/financial-data/entities.accounts.test.ts).
 */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const ACCOUNTS = '/financial-data/v2/accounts'

/** An own account; each test registers its accounts in an organization of its own (numbers are unique per organization). */
function accountBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Geschäftskonto',
    market: 'DE',
    currency: 'EUR',
    bank: { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' },
    identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }],
    ...overrides,
  }
}

describe('accounts on a bank connection', () => {
  it('registers an account with a FILES connection and shows it as thirdPartyId, on create, get and list', async () => {
    const org = await t.newOrganization('Thirdparty GmbH')
    const connection = await createConnection(t, {}, org)
    const created = await t.request({ method: 'POST', url: ACCOUNTS, body: accountBody({ connectionId: connection.id }), as: org })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json()).toMatchObject({ thirdPartyId: connection.id, fictive: false })
    const fetched = await t.request({ method: 'GET', url: `${ACCOUNTS}/${created.json().id}`, as: org })
    expect(fetched.json().thirdPartyId).toBe(connection.id)
    const listed = (await t.request({ method: 'GET', url: ACCOUNTS, as: org })).json<{ items: { id: string; thirdPartyId?: string }[] }>()
    expect(listed.items.find((account) => account.id === created.json().id)?.thirdPartyId).toBe(connection.id)
  })

  it("names no connection as thirdPartyId of an account registered without one; the sandbox accounts name the sandbox bank's", async () => {
    const org = await t.newOrganization('Unconnected GmbH')
    const created = await t.request({ method: 'POST', url: ACCOUNTS, body: accountBody(), as: org })
    expect(created.statusCode, created.body).toBe(201)
    const connections = (await t.request({ method: 'GET', url: CONNECTIONS, as: org })).json<{ items: { id: string; type: string }[] }>().items
    expect(connections.map((connection) => connection.type)).toEqual(['SANDBOX'])
    expect(connections.map((connection) => connection.id)).not.toContain(created.json().thirdPartyId)
    const listed = (await t.request({ method: 'GET', url: ACCOUNTS, as: org })).json<{ items: { id: string; fictive: boolean; thirdPartyId: string }[] }>()
    for (const account of listed.items.filter((item) => item.fictive)) expect(account.thirdPartyId).toBe(connections[0]!.id)
  })

  it('refuses a SANDBOX connection (400 naming connectionId), an unknown one, another organization’s and a deleted one (404), and an account without an IBAN (400)', async () => {
    const org = await t.newOrganization('Refusing GmbH')
    const other = await t.newOrganization('Other GmbH')
    const sandbox = await createConnection(t, { type: 'SANDBOX', name: 'Kassa Testbank' }, org)
    expectInvalidField(await t.request({ method: 'POST', url: ACCOUNTS, body: accountBody({ connectionId: sandbox.id }), as: org }), 'connectionId')
    expectInvalidField(await t.request({ method: 'POST', url: ACCOUNTS, body: accountBody({ connectionId: 'not-a-uuid' }), as: org }), 'connectionId')
    expectError(await t.request({ method: 'POST', url: ACCOUNTS, body: accountBody({ connectionId: '00000000-0000-4000-8000-000000000000' }), as: org }), 404, 'not_found')
    const theirs = await createConnection(t, {}, other)
    expectError(await t.request({ method: 'POST', url: ACCOUNTS, body: accountBody({ connectionId: theirs.id }), as: org }), 404, 'not_found')
    const deleted = await createConnection(t, { name: 'Gone' }, org)
    expect((await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${deleted.id}`, headers: { 'if-match': deleted.etag }, as: org })).statusCode).toBe(204)
    expectError(await t.request({ method: 'POST', url: ACCOUNTS, body: accountBody({ connectionId: deleted.id }), as: org }), 404, 'not_found')
    const connection = await createConnection(t, { name: 'Files' }, org)
    const numberOnly = accountBody({ connectionId: connection.id, identifiers: [{ market: 'DE', type: 'NUMBER', number: '0532013000' }] })
    expectInvalidField(await t.request({ method: 'POST', url: ACCOUNTS, body: numberOnly, as: org }), 'identifiers')
    const accounts = (await t.request({ method: 'GET', url: ACCOUNTS, as: org })).json<{ items: unknown[] }>()
    expect(accounts.items).toHaveLength(3)
  })

  it('refuses to delete a connection an account uses (409), and leaves it as it was', async () => {
    const org = await t.newOrganization('Inuse GmbH')
    const connection = await createConnection(t, {}, org)
    const created = await t.request({ method: 'POST', url: ACCOUNTS, body: accountBody({ connectionId: connection.id }), as: org })
    expect(created.statusCode, created.body).toBe(201)
    const refused = expectError(await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${connection.id}`, headers: { 'if-match': connection.etag }, as: org }), 409, 'conflict')
    expect(refused.message).toContain('thirdPartyId')
    const after = await t.request({ method: 'GET', url: `${CONNECTIONS}/${connection.id}`, as: org })
    expect(after.statusCode).toBe(200)
    expect(after.json()).toMatchObject({ version: 1, etag: connection.etag })
  })
})
