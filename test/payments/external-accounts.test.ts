import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { Counterparty } from '../../src/payments/counterparties/index.js'
import type { ExternalAccount } from '../../src/payments/external-accounts/index.js'
import { IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import {
  COUNTERPARTIES,
  EXTERNAL_ACCOUNTS,
  createCounterparty,
  expectError,
  expectInvalidField,
  listAll,
  listPage,
  patch,
} from './payments-helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

function account(number: string, extra: Record<string, unknown> = {}) {
  return { market: number.slice(0, 2), identifiers: [{ market: number.slice(0, 2), type: 'IBAN', number }], ...extra }
}

const url = (externalAccount: Pick<ExternalAccount, 'id'>) => `${EXTERNAL_ACCOUNTS}/${externalAccount.id}`

describe('GET /payments/v2/external-accounts', () => {
  let org: Credentials
  let first: Counterparty
  let second: Counterparty
  beforeAll(async () => {
    org = await t.newOrganization('External accounts')
    first = await createCounterparty(t, { accounts: [account(IBANS.de), account(IBANS.fr), account(IBANS.nl)] }, org)
    second = await createCounterparty(t, { accounts: [account(IBANS.gb), account(IBANS.se)] }, org)
  })

  it('lists every account of the organization, newest first', async () => {
    const page = await listPage<ExternalAccount>(t, EXTERNAL_ACCOUNTS, org)
    expect(page).toEqual({
      items: [...first.accounts, ...second.accounts].reverse(),
      nextToken: '',
      token: '',
      limit: 100,
    })
  })

  it('filters by counterpartyId, across pages', async () => {
    const filtered = `${EXTERNAL_ACCOUNTS}?counterpartyId=${first.id}&limit=2`
    const one = await listPage<ExternalAccount>(t, filtered, org)
    expect(one.items).toEqual([first.accounts[2], first.accounts[1]])
    const two = await listPage<ExternalAccount>(t, `${filtered}&token=${one.nextToken}`, org)
    expect(two.items).toEqual([first.accounts[0]])
    expect(two.nextToken).toBe('')
    expect(await listAll(t, `${EXTERNAL_ACCOUNTS}?counterpartyId=${second.id}`, org)).toEqual([...second.accounts].reverse())
    const upperCase = `${EXTERNAL_ACCOUNTS}?counterpartyId=${second.id.toUpperCase()}`
    expect(await listAll(t, upperCase, org)).toEqual([...second.accounts].reverse())
  })

  it('refuses a token made under another counterpartyId', async () => {
    const page = await listPage(t, `${EXTERNAL_ACCOUNTS}?counterpartyId=${first.id}&limit=1`, org)
    const response = await t.request({
      method: 'GET',
      url: `${EXTERNAL_ACCOUNTS}?counterpartyId=${second.id}&limit=1&token=${page.nextToken}`,
      as: org,
    })
    expectInvalidField(response, 'token', 'invalid_token')
  })

  it('answers an empty list for an unknown counterparty and 400 for a malformed counterpartyId', async () => {
    expect(await listAll(t, `${EXTERNAL_ACCOUNTS}?counterpartyId=01a1fdb5-0000-7000-8000-000000000000`, org)).toEqual([])
    expectInvalidField(await t.request({ method: 'GET', url: `${EXTERNAL_ACCOUNTS}?counterpartyId=abc`, as: org }), 'counterpartyId')
  })
})

describe('GET /payments/v2/external-accounts/{id}', () => {
  let counterparty: Counterparty
  beforeAll(async () => {
    counterparty = await createCounterparty(t, { accounts: [account(IBANS.fr, { externalId: 'fr-main' })] })
  })

  it('finds it by id and by external:{externalId}', async () => {
    const expected = counterparty.accounts[0]
    expect((await t.request({ method: 'GET', url: url(expected!) })).json()).toEqual(expected)
    expect((await t.request({ method: 'GET', url: `${EXTERNAL_ACCOUNTS}/external:fr-main` })).json()).toEqual(expected)
  })

  it('answers 404 for an unknown externalId, 400 for a malformed id', async () => {
    expectError(await t.request({ method: 'GET', url: `${EXTERNAL_ACCOUNTS}/external:fr-other` }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${EXTERNAL_ACCOUNTS}/${counterparty.id}` }), 404, 'not_found')
    expectInvalidField(await t.request({ method: 'GET', url: `${EXTERNAL_ACCOUNTS}/external:a*b` }), 'id')
  })
})

describe('PATCH /payments/v2/external-accounts/{id}', () => {
  async function freshAccount(extra: Record<string, unknown> = {}): Promise<ExternalAccount> {
    return (await createCounterparty(t, { accounts: [account(IBANS.de, extra)] })).accounts[0]!
  }

  it('adds, replaces and removes the alias; the name follows it', async () => {
    const before = await freshAccount()
    expect(before.name).toBe('DE89 3704 0044 0532 0130 00')
    await new Promise((resolve) => setTimeout(resolve, 2))

    const added = await patch(t, url(before), before.etag, [{ op: 'add', path: '/alias', value: 'Rent' }])
    expect(added.statusCode, added.body).toBe(200)
    const { version: _v, etag: _e, updated: _u, ...unchanged } = before
    expect(added.json()).toEqual({ ...unchanged, alias: 'Rent', name: 'Rent', version: 2, etag: 'version:2', updated: added.json().updated })
    expect(added.json().updated > before.updated).toBe(true)

    const replaced = await patch(t, url(before), 'version:2', [{ op: 'replace', path: '/alias', value: 'Rent 2' }])
    expect(replaced.json()).toMatchObject({ alias: 'Rent 2', name: 'Rent 2', version: 3 })
    const removed = await patch(t, url(before), 'version:3', [{ op: 'remove', path: '/alias' }])
    expect(removed.json()).toMatchObject({ name: 'DE89 3704 0044 0532 0130 00', version: 4, etag: 'version:4' })
    expect(removed.json()).not.toHaveProperty('alias')

    const viaCounterparty = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${before.counterpartyId}` })
    expect(viaCounterparty.json().accounts).toEqual([removed.json()])
  })

  it('moves its counterparty on too, which lists it: version, etag and the event EXTERNAL_ACCOUNT_UPDATED', async () => {
    const counterparty = await createCounterparty(t, { accounts: [account(IBANS.de)] })
    const before = counterparty.accounts[0]!
    const patched = await patch(t, url(before), before.etag, [{ op: 'add', path: '/alias', value: 'Payroll' }])
    expect(patched.statusCode, patched.body).toBe(200)
    const after = (await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })).json()
    expect(after).toMatchObject({ version: 2, etag: 'version:2', accounts: [patched.json()] })
    const events = await listAll<{ name: string; entityVersion: number }>(t, `${COUNTERPARTIES}/${counterparty.id}/events`)
    expect(events.map((event) => [event.name, event.entityVersion])).toEqual([
      ['CREATED', 1],
      ['EXTERNAL_ACCOUNT_UPDATED', 2],
    ])
    const stale = await patch(t, `${COUNTERPARTIES}/${counterparty.id}`, counterparty.etag, [{ op: 'replace', path: '/legalName', value: 'x' }])
    expectError(stale, 412, 'precondition_failed')
  })

  it('adds, replaces and removes metadata keys', async () => {
    const before = await freshAccount({ externalId: 'meta-acct', metadata: { a: '1' } })
    const response = await patch(t, `${EXTERNAL_ACCOUNTS}/external:meta-acct`, before.etag, [
      { op: 'add', path: '/metadata/b', value: '2' },
      { op: 'replace', path: '/metadata/a', value: '3' },
    ])
    expect(response.json()).toMatchObject({ metadata: { a: '3', b: '2' }, version: 2 })
    const removed = await patch(t, url(before), 'version:2', [{ op: 'remove', path: '/metadata/a' }])
    expect(removed.json().metadata).toEqual({ b: '2' })
  })

  it.each([
    ['replace /identifiers', { op: 'replace', path: '/identifiers', value: [] }],
    ['replace /market', { op: 'replace', path: '/market', value: 'FR' }],
    ['replace /counterpartyId', { op: 'replace', path: '/counterpartyId', value: '01a1fdb5-0000-7000-8000-000000000000' }],
    ['replace /name', { op: 'replace', path: '/name', value: 'x' }],
    ['replace /version', { op: 'replace', path: '/version', value: 5 }],
    ['replace /externalId', { op: 'replace', path: '/externalId', value: 'x' }],
  ])('refuses %s with 400', async (_name, operation) => {
    const before = await freshAccount()
    expectInvalidField(await patch(t, url(before), before.etag, [operation]), '0', 'invalid_patch')
    expect((await t.request({ method: 'GET', url: url(before) })).json()).toEqual(before)
  })

  it.each([
    ['an empty alias', [{ op: 'add', path: '/alias', value: '' }], 'alias'],
    ['an alias of 256 characters', [{ op: 'add', path: '/alias', value: 'x'.repeat(256) }], 'alias'],
    ['a bad metadata key', [{ op: 'add', path: '/metadata/a%b', value: 'v' }], 'metadata.a%b'],
  ])('refuses a patch leaving %s', async (_name, operations, field) => {
    const before = await freshAccount()
    expectInvalidField(await patch(t, url(before), before.etag, operations), field, 'invalid_patch')
  })

  it('needs If-Match (428) and the current etag (412)', async () => {
    const before = await freshAccount()
    const operations = [{ op: 'add', path: '/alias', value: 'x' }]
    expectError(await t.request({ method: 'PATCH', url: url(before), body: operations }), 428, 'precondition_required')
    expectError(await patch(t, url(before), 'version:2', operations), 412, 'precondition_failed')
  })

  it('answers 404 for an unknown account', async () => {
    const response = await patch(t, `${EXTERNAL_ACCOUNTS}/external:nobody`, 'version:1', [{ op: 'add', path: '/alias', value: 'x' }])
    expectError(response, 404, 'not_found')
  })
})
