import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { counterpartyBody, IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import {
  COUNTERPARTIES,
  EXTERNAL_ACCOUNTS,
  createCounterparty,
  expectError,
  expectInvalidField,
  listAll,
} from './payments-helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function ibanAccount(number: string, extra: Record<string, unknown> = {}) {
  const market = number.slice(0, 2).toUpperCase()
  return { market, identifiers: [{ market, type: 'IBAN', number }], ...extra }
}

describe('POST /payments/v2/counterparties: happy path', () => {
  it('echoes every field, assigns account ids and normalizes IBANs', async () => {
    const body = {
      legalName: 'Jane Doe',
      alias: 'jane',
      partyType: 'INDIVIDUAL',
      email: 'jane@example.com',
      phone: '+49 30 123456',
      address: { country: 'DE', city: 'Berlin', postalCode: '10115', streetName: 'Invalidenstraße', streetNumber: '1' },
      nationalIdentifier: { type: 'CIVIC', market: 'DE', number: '12345678' },
      externalId: 'jane-doe_1.a+b=c',
      metadata: { crm: 'C-1', 'tier.level': 'gold' },
      accounts: [
        ibanAccount('de89 3704 0044 0532 0130 00', { externalId: 'jane-main', metadata: { purpose: 'rent' } }),
        { market: 'SE', alias: 'Savings', identifiers: [{ market: 'SE', type: 'NUMBER', number: '5000 0000 0583 9825' }] },
      ],
    }
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body })
    expect(response.statusCode, response.body).toBe(201)
    const created = response.json()

    const { accounts: _accounts, ...fields } = body
    expect(created).toEqual({
      ...fields,
      id: expect.stringMatching(UUID),
      organizationId: t.owner.organizationId,
      accounts: [expect.any(Object), expect.any(Object)],
      version: 1,
      etag: 'version:1',
      created: expect.stringMatching(ISO),
      updated: created.created,
    })
    const accountCommon = {
      id: expect.stringMatching(UUID),
      organizationId: t.owner.organizationId,
      counterpartyId: created.id,
      version: 1,
      etag: 'version:1',
      created: created.created,
      updated: created.created,
    }
    expect(created.accounts[0]).toEqual({
      ...accountCommon,
      externalId: 'jane-main',
      market: 'DE',
      identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }],
      name: 'DE89 3704 0044 0532 0130 00',
      metadata: { purpose: 'rent' },
    })
    expect(created.accounts[1]).toEqual({
      ...accountCommon,
      market: 'SE',
      identifiers: [{ market: 'SE', type: 'NUMBER', number: '5000000005839825' }],
      alias: 'Savings',
      name: 'Savings',
      metadata: {},
    })
    expect(created.accounts[0].id).not.toBe(created.accounts[1].id)

    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${created.id}` })
    expect(read.json()).toEqual(created)
    const account = await t.request({ method: 'GET', url: `${EXTERNAL_ACCOUNTS}/${created.accounts[0].id}` })
    expect(account.json()).toEqual(created.accounts[0])
  })

  it('needs only legalName; optional fields are left out, not null', async () => {
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: { legalName: 'Minimal Ltd' } })
    expect(response.statusCode, response.body).toBe(201)
    const created = response.json()
    expect(created).toMatchObject({ legalName: 'Minimal Ltd', accounts: [], metadata: {}, version: 1 })
    for (const absent of ['alias', 'partyType', 'email', 'phone', 'address', 'nationalIdentifier', 'externalId']) {
      expect(created).not.toHaveProperty(absent)
    }
  })

  it('accepts 25 accounts and a legalName of 96 characters', async () => {
    const accounts = Array.from({ length: 25 }, () => ibanAccount(IBANS.nl))
    const created = await createCounterparty(t, { legalName: 'x'.repeat(96), accounts })
    expect(created.accounts).toHaveLength(25)
    expect(new Set(created.accounts.map((a) => a.id)).size).toBe(25)
  })
})

describe('POST /payments/v2/counterparties: validation', () => {
  let org: Credentials
  beforeAll(async () => {
    org = await t.newOrganization('Validation')
  })

  const tooManyMetadata = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`k${i}`, 'v']))
  const { legalName: _legalName, ...withoutLegalName } = counterpartyBody()
  const badIdentifier = (identifier: Record<string, unknown>) => ({
    accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de, ...identifier }] }],
  })

  it.each([
    ['missing legalName', withoutLegalName, 'legalName'],
    ['empty legalName', { legalName: '' }, 'legalName'],
    ['legalName of 97 characters', { legalName: 'x'.repeat(97) }, 'legalName'],
    ['legalName not a string', { legalName: 42 }, 'legalName'],
    ['unknown partyType', { partyType: 'ORGANIZATION' }, 'partyType'],
    ['malformed email', { email: 'not-an-email' }, 'email'],
    ['unknown top-level field', { nickname: 'x' }, 'nickname'],
    ['unknown field in address', { address: { city: 'Berlin', region: 'BE' } }, 'address.region'],
    [
      'unknown field in nationalIdentifier',
      { nationalIdentifier: { type: 'CIVIC', market: 'DE', number: '1', issued: '2020' } },
      'nationalIdentifier.issued',
    ],
    ['unknown field in an account', { accounts: [ibanAccount(IBANS.de, { bank: 'x' })] }, 'accounts.0.bank'],
    ['unknown field in an identifier', badIdentifier({ bic: 'COBADEFF' }), 'accounts.0.identifiers.0.bic'],
    ['IBAN with a bad checksum', badIdentifier({ number: 'DE89370400440532013001' }), 'accounts.0.identifiers.0.number'],
    ['IBAN one digit short', badIdentifier({ number: 'DE8937040044053201300' }), 'accounts.0.identifiers.0.number'],
    ['IBAN of no country', badIdentifier({ number: 'XX89370400440532013000' }), 'accounts.0.identifiers.0.number'],
    ['unknown identifier type', badIdentifier({ type: 'BBAN' }), 'accounts.0.identifiers.0.type'],
    ['account number of only spaces', badIdentifier({ type: 'NUMBER', number: '   ' }), 'accounts.0.identifiers.0.number'],
    ['lower-case identifier market', badIdentifier({ market: 'de' }), 'accounts.0.identifiers.0.market'],
    ['three-letter account market', { accounts: [ibanAccount(IBANS.de, { market: 'DEU' })] }, 'accounts.0.market'],
    ['an account without identifiers', { accounts: [{ market: 'DE', identifiers: [] }] }, 'accounts.0.identifiers'],
    ['26 accounts', { accounts: Array.from({ length: 26 }, () => ibanAccount(IBANS.de)) }, 'accounts'],
    ['externalId with a space', { externalId: 'a b' }, 'externalId'],
    ['externalId with a slash', { externalId: 'a/b' }, 'externalId'],
    ['empty externalId', { externalId: '' }, 'externalId'],
    ['externalId of 65 characters', { externalId: 'x'.repeat(65) }, 'externalId'],
    ['non-ASCII externalId', { externalId: 'caf\u00e9' }, 'externalId'],
    ['bad account externalId', { accounts: [ibanAccount(IBANS.de, { externalId: 'a:b' })] }, 'accounts.0.externalId'],
    [
      'two accounts with one externalId',
      { accounts: [ibanAccount(IBANS.de, { externalId: 'same' }), ibanAccount(IBANS.fr, { externalId: 'same' })] },
      'accounts.1.externalId',
    ],
    ['metadata with 13 keys', { metadata: tooManyMetadata }, 'metadata'],
    ['metadata key with a space', { metadata: { 'bad key': 'v' } }, 'metadata.bad key'],
    ['metadata key of 65 characters', { metadata: { ['k'.repeat(65)]: 'v' } }, `metadata.${'k'.repeat(65)}`],
    ['metadata value not a string', { metadata: { amount: 5 } }, 'metadata.amount'],
    ['metadata value of 513 characters', { metadata: { note: 'x'.repeat(513) } }, 'metadata.note'],
    ['account metadata with 13 keys', { accounts: [ibanAccount(IBANS.de, { metadata: tooManyMetadata })] }, 'accounts.0.metadata'],
  ])('%s → 400 naming the field', async (_name, overrides, field) => {
    const body = field === 'legalName' && !('legalName' in overrides) ? overrides : counterpartyBody(overrides)
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body, as: org })
    expectInvalidField(response, field)
  })

  it('says what is wrong with an IBAN', async () => {
    const checksum = await t.request({
      method: 'POST',
      url: COUNTERPARTIES,
      body: counterpartyBody(badIdentifier({ number: 'DE89370400440532013001' })),
      as: org,
    })
    expect(checksum.json().details[0].error).toMatch(/checksum/)
    const length = await t.request({
      method: 'POST',
      url: COUNTERPARTIES,
      body: counterpartyBody(badIdentifier({ number: 'DE8937040044053201300' })),
      as: org,
    })
    expect(length.json().details[0].error).toMatch(/length/)
  })

  it('wrote nothing for any invalid request', async () => {
    expect(await listAll(t, COUNTERPARTIES, org)).toEqual([])
    expect(await listAll(t, EXTERNAL_ACCOUNTS, org)).toEqual([])
  })
})

describe('POST /payments/v2/counterparties: externalId uniqueness', () => {
  let org: Credentials
  beforeAll(async () => {
    org = await t.newOrganization('Uniqueness')
  })

  it('refuses a counterparty externalId already in use with 409, writing nothing', async () => {
    await createCounterparty(t, { externalId: 'cp-1', accounts: [ibanAccount(IBANS.de, { externalId: 'acct-1' })] }, org)
    const again = await t.request({
      method: 'POST',
      url: COUNTERPARTIES,
      body: counterpartyBody({ externalId: 'cp-1', accounts: [ibanAccount(IBANS.fr)] }),
      as: org,
    })
    expect(expectError(again, 409, 'external_id_taken').message).toMatch(/counterparty/)
    expect(await listAll(t, COUNTERPARTIES, org)).toHaveLength(1)
    expect(await listAll(t, EXTERNAL_ACCOUNTS, org)).toHaveLength(1)
  })

  it('refuses an external account externalId already in use with 409, writing nothing', async () => {
    const clash = await t.request({
      method: 'POST',
      url: COUNTERPARTIES,
      body: counterpartyBody({ externalId: 'cp-2', accounts: [ibanAccount(IBANS.fr), ibanAccount(IBANS.nl, { externalId: 'acct-1' })] }),
      as: org,
    })
    expect(expectError(clash, 409, 'external_id_taken').message).toMatch(/external account/)
    expect(await listAll(t, COUNTERPARTIES, org)).toHaveLength(1)
    expect(await listAll(t, EXTERNAL_ACCOUNTS, org)).toHaveLength(1)
    const lookup = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:cp-2`, as: org })
    expectError(lookup, 404, 'not_found')
  })

  it('lets a counterparty and an external account share an externalId (unique per resource type)', async () => {
    const created = await createCounterparty(t, { externalId: 'shared', accounts: [ibanAccount(IBANS.gb, { externalId: 'shared' })] }, org)
    expect(created.externalId).toBe('shared')
    expect(created.accounts[0]!.externalId).toBe('shared')
  })

  it('allows the same externalIds in another organization', async () => {
    const other = await t.newOrganization('Elsewhere')
    const created = await createCounterparty(t, { externalId: 'cp-1', accounts: [ibanAccount(IBANS.de, { externalId: 'acct-1' })] }, other)
    expect(created.organizationId).toBe(other.organizationId)
    const mine = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:cp-1`, as: org })
    expect(mine.json().id).not.toBe(created.id)
  })
})
