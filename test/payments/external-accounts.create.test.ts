import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { Counterparty } from '../../src/payments/counterparties/index.js'
import type { ExternalAccount } from '../../src/payments/external-accounts/index.js'
import { IBANS, externalAccountBody } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { COUNTERPARTIES, EXTERNAL_ACCOUNTS, createCounterparty, expectError, expectInvalidField, listAll, remove } from './payments-helpers.js'

/**
 * Issue 13: POST /payments/v2/external-accounts adds an account to an existing counterparty, checked as the
 * accounts a counterparty is created with are; the counterparty lists it, so it moves on too.
 */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

function post(body: unknown, options: { as?: Credentials | null; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: EXTERNAL_ACCOUNTS, body, ...options })
}

async function getCounterparty(id: string, as?: Credentials): Promise<Counterparty> {
  const response = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${id}`, as })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<Counterparty>()
}

async function counterpartyEvents(id: string): Promise<Array<{ type: string; name: string; entityVersion: number }>> {
  return listAll(t, `${COUNTERPARTIES}/${id}/events`)
}

/** The events of an external account (it has no events endpoint; webhooks carry them). */
async function accountEvents(id: string) {
  const rows = await t.db.database.db.selectFrom('events').select(['type', 'name', 'entity_version']).where('entity_id', '=', id).orderBy('sequence').execute()
  return rows.map((row) => [row.type, row.name, Number(row.entity_version)])
}

async function accountCount(organizationId = t.owner.organizationId): Promise<number> {
  const row = await t.db.database.db
    .selectFrom('external_accounts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

describe('POST /payments/v2/external-accounts', () => {
  it('adds the account: 201 with it, the IBAN in electronic form; the counterparty lists it and moves on', async () => {
    const counterparty = await createCounterparty(t)
    const response = await post(
      externalAccountBody(counterparty.id, {
        identifiers: [{ market: 'FR', type: 'IBAN', number: 'fr14 2004 1010 0505 0001 3m02 606' }],
        alias: 'Paris',
        externalId: 'paris-acct',
        metadata: { branch: 'paris' },
      }),
    )
    expect(response.statusCode, response.body).toBe(201)
    const account = response.json<ExternalAccount>()
    expect(account).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organizationId: t.owner.organizationId,
      counterpartyId: counterparty.id,
      externalId: 'paris-acct',
      market: 'FR',
      identifiers: [{ market: 'FR', type: 'IBAN', number: IBANS.fr }],
      alias: 'Paris',
      name: 'Paris',
      metadata: { branch: 'paris' },
      version: 1,
      etag: 'version:1',
      created: account.created,
      updated: account.created,
    })
    expect((await t.request({ method: 'GET', url: `${EXTERNAL_ACCOUNTS}/${account.id}` })).json()).toEqual(account)
    expect((await t.request({ method: 'GET', url: `${EXTERNAL_ACCOUNTS}/external:paris-acct` })).json()).toEqual(account)

    const after = await getCounterparty(counterparty.id)
    expect(after.accounts).toEqual([...counterparty.accounts, account])
    expect(after).toMatchObject({ version: 2, etag: 'version:2' })
    expect(after.updated >= counterparty.updated).toBe(true)
    expect(await counterpartyEvents(counterparty.id)).toMatchObject([
      { type: 'CREATED', name: 'CREATED', entityVersion: 1 },
      { type: 'UPDATED', name: 'EXTERNAL_ACCOUNT_ADDED', entityVersion: 2 },
    ])
    expect(await accountEvents(account.id)).toEqual([['CREATED', 'CREATED', 1]])

    // An etag read before the account was added is stale now.
    const stale = await t.request({
      method: 'PATCH',
      url: `${COUNTERPARTIES}/${counterparty.id}`,
      body: [{ op: 'replace', path: '/legalName', value: 'Acme SARL' }],
      headers: { 'if-match': counterparty.etag },
    })
    expectError(stale, 412, 'precondition_failed')
  })

  it('is named after the account number without an alias, and takes the counterparty id in upper case', async () => {
    const counterparty = await createCounterparty(t, { accounts: [] })
    const response = await post({ counterpartyId: counterparty.id.toUpperCase(), market: 'NL', identifiers: [{ market: 'NL', type: 'IBAN', number: IBANS.nl }] })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toMatchObject({ counterpartyId: counterparty.id, name: 'NL91 ABNA 0417 1643 00', metadata: {} })
    expect(response.json()).not.toHaveProperty('alias')
    expect(response.json()).not.toHaveProperty('externalId')
    expect((await getCounterparty(counterparty.id)).accounts).toEqual([response.json()])
  })

  it('lets parallel adds to one counterparty all land, each moving it on once', async () => {
    const counterparty = await createCounterparty(t, { accounts: [] })
    const ibans = [IBANS.de, IBANS.fr, IBANS.nl, IBANS.gb, IBANS.se]
    const responses = await Promise.all(
      ibans.map((iban) => post({ counterpartyId: counterparty.id, market: iban.slice(0, 2), identifiers: [{ market: iban.slice(0, 2), type: 'IBAN', number: iban }] })),
    )
    expect(responses.map((response) => response.statusCode)).toEqual(ibans.map(() => 201))
    const after = await getCounterparty(counterparty.id)
    expect(after.version).toBe(1 + ibans.length)
    expect(after.accounts.map((account) => account.identifiers[0]!.number).sort()).toEqual([...ibans].sort())
    expect((await counterpartyEvents(counterparty.id)).map((event) => event.entityVersion)).toEqual([1, 2, 3, 4, 5, 6])
  })
})

describe('POST /payments/v2/external-accounts: validation', () => {
  let counterparty: Counterparty
  beforeAll(async () => {
    counterparty = await createCounterparty(t, { accounts: [] })
  })

  const cases: Array<[string, (id: string) => unknown, string]> = [
    ['no counterpartyId', (id) => ({ ...externalAccountBody(id), counterpartyId: undefined }), 'counterpartyId'],
    ['a counterpartyId that is no UUID', (id) => externalAccountBody(id, { counterpartyId: 'acme' }), 'counterpartyId'],
    ['no market', (id) => ({ ...externalAccountBody(id), market: undefined }), 'market'],
    ['a market in lower case', (id) => externalAccountBody(id, { market: 'fr' }), 'market'],
    ['no identifiers', (id) => externalAccountBody(id, { identifiers: [] }), 'identifiers'],
    ['11 identifiers', (id) => externalAccountBody(id, { identifiers: Array(11).fill({ market: 'FR', type: 'IBAN', number: IBANS.fr }) }), 'identifiers'],
    ['an IBAN with a wrong checksum', (id) => externalAccountBody(id, { identifiers: [{ market: 'FR', type: 'IBAN', number: 'FR1520041010050500013M02606' }] }), 'identifiers.0.number'],
    ['a blank account number', (id) => externalAccountBody(id, { identifiers: [{ market: 'GB', type: 'NUMBER', number: '   ' }] }), 'identifiers.0.number'],
    ['an unknown identifier type', (id) => externalAccountBody(id, { identifiers: [{ market: 'FR', type: 'PHONE', number: '123' }] }), 'identifiers.0.type'],
    ['an empty alias', (id) => externalAccountBody(id, { alias: '' }), 'alias'],
    ['an externalId with a space', (id) => externalAccountBody(id, { externalId: 'a b' }), 'externalId'],
    ['a metadata value that is no string', (id) => externalAccountBody(id, { metadata: { a: 1 } }), 'metadata.a'],
    ['an unknown field', (id) => externalAccountBody(id, { routingNumber: '123' }), 'routingNumber'],
    ['a read-only field', (id) => externalAccountBody(id, { name: 'x' }), 'name'],
  ]
  it.each(cases)('refuses %s with 400 naming it, and adds nothing', async (_name, body, field) => {
    expectInvalidField(await post(JSON.parse(JSON.stringify(body(counterparty.id)))), field)
    expect((await getCounterparty(counterparty.id)).version).toBe(1)
  })

  it('answers 400 alike for an unknown counterparty, a deleted one and another organization’s, and adds nothing', async () => {
    const other = await t.newOrganization('Someone else')
    const theirs = await createCounterparty(t, {}, other)
    const deleted = await createCounterparty(t)
    expect((await remove(t, `${COUNTERPARTIES}/${deleted.id}`, deleted.etag)).statusCode).toBe(204)
    const before = await accountCount()
    for (const id of ['01900000-0000-7000-8000-000000000000', deleted.id, theirs.id]) {
      const body = expectInvalidField(await post(externalAccountBody(id)), 'counterpartyId')
      expect(body.message).toBe('Invalid value for counterpartyId: is not a counterparty of this organization, or it was deleted')
    }
    expect(await accountCount()).toBe(before)
    expect(await getCounterparty(theirs.id, other)).toEqual(theirs)
  })

  it('answers 409 external_id_taken for an externalId any account of the organization has, a deleted one’s too', async () => {
    const holder = await createCounterparty(t, {
      accounts: [
        { market: 'DE', externalId: 'kept-acct', identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }] },
        { market: 'NL', externalId: 'gone-acct', identifiers: [{ market: 'NL', type: 'IBAN', number: IBANS.nl }] },
      ],
    })
    const gone = holder.accounts[1]!
    expect((await remove(t, `${EXTERNAL_ACCOUNTS}/${gone.id}`, gone.etag)).statusCode).toBe(204)
    for (const externalId of ['kept-acct', 'gone-acct']) {
      const body = expectError(await post(externalAccountBody(counterparty.id, { externalId })), 409, 'external_id_taken')
      expect(body.message).toBe('The externalId is already used by an external account of this organization')
    }
    // A counterparty's externalId is another resource type's: an account may have it too.
    const sameAsCounterparty = await createCounterparty(t, { externalId: 'shared-name', accounts: [] })
    expect((await post(externalAccountBody(sameAsCounterparty.id, { externalId: 'shared-name' }))).statusCode).toBe(201)
    // And another organization may use the same externalId.
    const other = await t.newOrganization('Other externalIds')
    const theirs = await createCounterparty(t, { accounts: [] }, other)
    expect((await post(externalAccountBody(theirs.id, { externalId: 'kept-acct' }), { as: other })).statusCode).toBe(201)
    expect((await getCounterparty(counterparty.id)).version).toBe(1)
  })

  it('answers 409 when the counterparty already has 25 accounts', async () => {
    const accounts = Array.from({ length: 25 }, () => ({ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }] }))
    const full = await createCounterparty(t, { accounts })
    const body = expectError(await post(externalAccountBody(full.id)), 409, 'conflict')
    expect(body.message).toBe('The counterparty already has 25 external accounts, the most it may have')
    const last = full.accounts[24]!
    expect((await remove(t, `${EXTERNAL_ACCOUNTS}/${last.id}`, last.etag)).statusCode).toBe(204)
    expect((await post(externalAccountBody(full.id))).statusCode).toBe(201)
    expect((await getCounterparty(full.id)).accounts).toHaveLength(25)
  })
})

describe('POST /payments/v2/external-accounts: Idempotency-Key', () => {
  it('replays a retry: the same 201 and body, one account, one event', async () => {
    const counterparty = await createCounterparty(t, { accounts: [] })
    const headers = { 'idempotency-key': `add-account-${counterparty.id}` }
    const first = await post(externalAccountBody(counterparty.id), { headers })
    expect(first.statusCode, first.body).toBe(201)
    const retry = await post(externalAccountBody(counterparty.id), { headers })
    expect(retry.statusCode).toBe(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.body).toBe(first.body)
    const after = await getCounterparty(counterparty.id)
    expect(after.accounts).toEqual([first.json()])
    expect(after.version).toBe(2)
    expect(await accountEvents(first.json().id)).toEqual([['CREATED', 'CREATED', 1]])
  })

  it('answers 422 to the same key with another body, and adds nothing', async () => {
    const counterparty = await createCounterparty(t, { accounts: [] })
    const headers = { 'idempotency-key': `add-account-twice-${counterparty.id}` }
    expect((await post(externalAccountBody(counterparty.id), { headers })).statusCode).toBe(201)
    expectError(await post(externalAccountBody(counterparty.id, { alias: 'another' }), { headers }), 422, 'idempotency_key_reused')
    expect((await getCounterparty(counterparty.id)).accounts).toHaveLength(1)
  })
})

describe('POST /payments/v2/external-accounts: access', () => {
  it('needs external_accounts:create: 403 for a read-only key, 401 without credentials; nothing is added', async () => {
    const counterparty = await createCounterparty(t, { accounts: [] })
    const reader = await t.newKey('read-only')
    const body = expectError(await post(externalAccountBody(counterparty.id), { as: reader }), 403, 'forbidden')
    expect(body.message).toContain('external_accounts:create')
    expectError(await post(externalAccountBody(counterparty.id), { as: null }), 401, 'unauthorized')
    expect(await getCounterparty(counterparty.id)).toEqual(counterparty)
  })
})
