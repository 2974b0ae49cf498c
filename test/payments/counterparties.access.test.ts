import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { Counterparty } from '../../src/payments/counterparties/index.js'
import { counterpartyBody, externalAccountBody } from '../support/fixtures.js'
import { startTestApp, type TestApp, type RequestOptions } from '../support/test-app.js'
import { COUNTERPARTIES, EXTERNAL_ACCOUNTS, createCounterparty, expectError, listAll } from './payments-helpers.js'

let t: TestApp
let counterparty: Counterparty
beforeAll(async () => {
  t = await startTestApp()
  counterparty = await createCounterparty(t, {
    externalId: 'mine',
    accounts: [{ market: 'DE', externalId: 'mine-acct', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }] }],
  })
})
afterAll(() => t.close())

const aliasPatch = [{ op: 'add', path: '/alias', value: 'taken over' }]

/** Every route that addresses one counterparty or external account, by id and by externalId. */
function singleResourceRequests(): Array<[string, Omit<RequestOptions, 'as'>]> {
  const account = counterparty.accounts[0]!
  const ifMatch = { 'if-match': 'version:1' }
  return [
    ...[counterparty.id, 'external:mine'].flatMap((ref): Array<[string, Omit<RequestOptions, 'as'>]> => [
      [`GET counterparty ${ref}`, { method: 'GET', url: `${COUNTERPARTIES}/${ref}` }],
      [`GET counterparty events ${ref}`, { method: 'GET', url: `${COUNTERPARTIES}/${ref}/events` }],
      [`PATCH counterparty ${ref}`, { method: 'PATCH', url: `${COUNTERPARTIES}/${ref}`, body: aliasPatch, headers: ifMatch }],
      [`DELETE counterparty ${ref}`, { method: 'DELETE', url: `${COUNTERPARTIES}/${ref}`, headers: ifMatch }],
    ]),
    ...[account.id, 'external:mine-acct'].flatMap((ref): Array<[string, Omit<RequestOptions, 'as'>]> => [
      [`GET external account ${ref}`, { method: 'GET', url: `${EXTERNAL_ACCOUNTS}/${ref}` }],
      [`PATCH external account ${ref}`, { method: 'PATCH', url: `${EXTERNAL_ACCOUNTS}/${ref}`, body: aliasPatch, headers: ifMatch }],
      [`DELETE external account ${ref}`, { method: 'DELETE', url: `${EXTERNAL_ACCOUNTS}/${ref}`, headers: ifMatch }],
    ]),
  ]
}

async function expectUntouched(): Promise<void> {
  expect((await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })).json()).toEqual(counterparty)
}

describe('another organization', () => {
  let stranger: Credentials
  beforeAll(async () => {
    stranger = await t.newOrganization('Stranger')
  })

  it('gets 404 from every route on our counterparty and its external account', async () => {
    for (const [name, request] of singleResourceRequests()) {
      const response = await t.request({ ...request, as: stranger })
      expect(response.statusCode, name).toBe(404)
      expect(response.json().code, name).toBe('not_found')
    }
    await expectUntouched()
  })

  it('cannot add an external account to our counterparty: 400, as for one that does not exist', async () => {
    const response = await t.request({ method: 'POST', url: EXTERNAL_ACCOUNTS, body: externalAccountBody(counterparty.id), as: stranger })
    expectError(response, 400, 'invalid_request')
    expect(response.json().details).toEqual([{ code: 'invalid_value', field: 'counterpartyId', error: 'is not a counterparty of this organization, or it was deleted' }])
    await expectUntouched()
  })

  it('does not see them in lists', async () => {
    expect(await listAll(t, COUNTERPARTIES, stranger)).toEqual([])
    expect(await listAll(t, `${COUNTERPARTIES}?query=Acme`, stranger)).toEqual([])
    expect(await listAll(t, EXTERNAL_ACCOUNTS, stranger)).toEqual([])
    expect(await listAll(t, `${EXTERNAL_ACCOUNTS}?counterpartyId=${counterparty.id}`, stranger)).toEqual([])
  })
})

describe('a read-only key', () => {
  let reader: Credentials
  beforeAll(async () => {
    reader = await t.newKey('read-only')
  })

  it('reads every route', async () => {
    const reads = singleResourceRequests().filter(([, request]) => request.method === 'GET')
    for (const [name, request] of reads) expect((await t.request({ ...request, as: reader })).statusCode, name).toBe(200)
    expect(await listAll(t, COUNTERPARTIES, reader)).toEqual([counterparty])
    expect(await listAll(t, EXTERNAL_ACCOUNTS, reader)).toEqual(counterparty.accounts)
  })

  it('gets 403 from every write, and nothing changes', async () => {
    const writes = singleResourceRequests().filter(([, request]) => request.method !== 'GET')
    for (const [name, request] of writes) {
      const response = await t.request({ ...request, as: reader })
      expect(response.statusCode, name).toBe(403)
      expect(response.json().code, name).toBe('forbidden')
    }
    const create = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: reader })
    expectError(create, 403, 'forbidden')
    const add = await t.request({ method: 'POST', url: EXTERNAL_ACCOUNTS, body: externalAccountBody(counterparty.id), as: reader })
    expectError(add, 403, 'forbidden')
    expect(await listAll(t, COUNTERPARTIES)).toEqual([counterparty])
    await expectUntouched()
  })
})

describe('without credentials', () => {
  it('every route answers 401', async () => {
    for (const [name, request] of singleResourceRequests()) {
      expect((await t.request({ ...request, as: null })).statusCode, name).toBe(401)
    }
    expect((await t.request({ method: 'GET', url: COUNTERPARTIES, as: null })).statusCode).toBe(401)
    expect((await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: null })).statusCode).toBe(401)
    expect((await t.request({ method: 'POST', url: EXTERNAL_ACCOUNTS, body: externalAccountBody(counterparty.id), as: null })).statusCode).toBe(401)
  })
})
