import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { Counterparty } from '../../src/payments/counterparties/index.js'
import { IBANS } from '../support/fixtures.js'
import { openDatabase } from '../../src/db/database.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { COUNTERPARTIES, createCounterparty, expectError, expectInvalidField, listAll, listPage } from './payments-helpers.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

function withIban(number: string) {
  return [{ market: number.slice(0, 2), identifiers: [{ market: number.slice(0, 2), type: 'IBAN', number }] }]
}

describe('GET /payments/v2/counterparties/{id}', () => {
  let counterparty: Counterparty
  beforeAll(async () => {
    counterparty = await createCounterparty(t, { externalId: 'crm.42' })
  })

  it('finds it by id, also written in upper case', async () => {
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual(counterparty)
    const upper = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id.toUpperCase()}` })
    expect(upper.json()).toEqual(counterparty)
  })

  it('answers JSON with its content type, also when the body comes from the read cache', async () => {
    for (const url of [`${COUNTERPARTIES}/${counterparty.id}`, `${COUNTERPARTIES}/${counterparty.id}`, COUNTERPARTIES, COUNTERPARTIES]) {
      expect((await t.request({ method: 'GET', url })).headers['content-type']).toBe('application/json; charset=utf-8')
    }
  })

  it('finds it by external:{externalId}', async () => {
    const read = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:crm.42` })
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual(counterparty)
  })

  it('answers 404 for an unknown id or externalId', async () => {
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/external:crm.43` }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/01a1fdb5-0000-7000-8000-000000000000` }), 404, 'not_found')
  })

  it.each([
    ['not-a-uuid'],
    ['external:'],
    ['external:a%20b'],
    [`external:${'x'.repeat(65)}`],
    ['EXTERNAL:crm.42'],
  ])('answers 400 naming the id for the malformed %s', async (id) => {
    expectInvalidField(await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${id}` }), 'id')
  })
})

describe('GET /payments/v2/counterparties', () => {
  let org: Credentials
  const created: Counterparty[] = []
  beforeAll(async () => {
    org = await t.newOrganization('Listing')
    const bodies = [
      { legalName: 'Acme GmbH', alias: 'acme' },
      { legalName: 'Globex Corporation', alias: 'Globex Supplier' },
      {
        legalName: 'Initech',
        alias: 'printers',
        accounts: [
          {
            market: 'NL',
            identifiers: [
              { market: 'NL', type: 'IBAN', number: IBANS.nl },
              { market: 'NL', type: 'NUMBER', number: '417164300' },
            ],
          },
        ],
      },
      { legalName: '100% Pure_Water', alias: 'water' },
      { legalName: '100X PureXWater', alias: 'water too' },
    ]
    for (const body of bodies) created.push(await createCounterparty(t, { accounts: withIban(IBANS.de), ...body }, org))
  })

  it('lists newest first in the list envelope', async () => {
    const page = await listPage<Counterparty>(t, COUNTERPARTIES, org)
    expect(page).toEqual({ items: [...created].reverse(), nextToken: '', token: '', limit: 100 })
  })

  it.each([
    ['ACME', ['Acme GmbH']],
    ['gmbh', ['Acme GmbH']],
    ['supplier', ['Globex Corporation']],
    ['abna0417', ['Initech']],
    ['NL91ABNA0417164300', ['Initech']],
    ['nl91 abna 0417', ['Initech']],
    ['0% P', ['100% Pure_Water']],
    ['e_W', ['100% Pure_Water']],
    ['PureXWater', ['100X PureXWater']],
    ['nothing like it', []],
  ])('query=%s matches legal name, alias or account number, case-insensitively and literally', async (query, names) => {
    const page = await listPage<Counterparty>(t, `${COUNTERPARTIES}?query=${encodeURIComponent(query)}`, org)
    expect(page.items.map((item) => item.legalName)).toEqual(names)
  })

  it.each([['IBAN'], ['market'], ['number'], ['type'], ['},{'], ['",,"'], ['"}{"'], ['n l']])(
    'query=%s does not match the stored form of account identifiers',
    async (query) => {
      const page = await listPage<Counterparty>(t, `${COUNTERPARTIES}?query=${encodeURIComponent(query)}`, org)
      expect(page.items).toEqual([])
    },
  )

  it('refuses a query shorter than 3 characters', async () => {
    expectInvalidField(await t.request({ method: 'GET', url: `${COUNTERPARTIES}?query=ac`, as: org }), 'query')
  })

  it('pages through many counterparties without repeats or gaps, also while new ones arrive', async () => {
    const paging = await t.newOrganization('Paging')
    const ids: string[] = []
    for (let i = 0; i < 12; i++) ids.push((await createCounterparty(t, { legalName: `Party ${i}`, accounts: [] }, paging)).id)
    const seen: string[] = []
    let url = `${COUNTERPARTIES}?limit=5`
    for (;;) {
      const page = await listPage<Counterparty>(t, url, paging)
      expect(page.limit).toBe(5)
      expect(page.items.length).toBeLessThanOrEqual(5)
      seen.push(...page.items.map((item) => item.id))
      if (seen.length === 5) await createCounterparty(t, { legalName: 'Latecomer', accounts: [] }, paging)
      if (page.nextToken === '') break
      url = `${COUNTERPARTIES}?limit=5&token=${page.nextToken}`
    }
    expect(seen).toEqual([...ids].reverse())
  })

  it('coerces limit into 1..500 and refuses a non-integer', async () => {
    expect((await listPage(t, `${COUNTERPARTIES}?limit=0`, org)).limit).toBe(1)
    expect((await listPage(t, `${COUNTERPARTIES}?limit=0`, org)).items).toHaveLength(1)
    expect((await listPage(t, `${COUNTERPARTIES}?limit=9999`, org)).limit).toBe(500)
    expectInvalidField(await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=two`, as: org }), 'limit')
  })

  it('refuses a token made under another query', async () => {
    const first = await listPage(t, `${COUNTERPARTIES}?limit=1&query=water`, org)
    expect(first.nextToken).not.toBe('')
    const response = await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=1&query=acme&token=${first.nextToken}`, as: org })
    expectInvalidField(response, 'token', 'invalid_token')
    const same = await listPage<Counterparty>(t, `${COUNTERPARTIES}?limit=1&query=water&token=${first.nextToken}`, org)
    expect(same.items.map((item) => item.legalName)).toEqual(['100% Pure_Water'])
    expect(same.token).toBe(first.nextToken)
  })

  it('shows only the caller organization', async () => {
    const mine = await listAll<Counterparty>(t, COUNTERPARTIES, org)
    expect(mine.map((item) => item.id).sort()).toEqual(created.map((item) => item.id).sort())
  })
})

describe('reads after changes made elsewhere', () => {
  it('answers GET and list pages with what another connection (the CLI, a second server) committed since', async () => {
    const counterparty = await createCounterparty(t, { legalName: 'Before elsewhere' })
    const url = `${COUNTERPARTIES}/${counterparty.id}`
    const listed = async () => ((await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=500` })).json().items as Counterparty[]).find((item) => item.id === counterparty.id)
    // Read twice, so anything kept in memory would be answered from there.
    for (let n = 0; n < 2; n += 1) {
      expect((await t.request({ method: 'GET', url })).json().legalName).toBe('Before elsewhere')
      expect((await listed())?.legalName).toBe('Before elsewhere')
    }
    const other = openDatabase(t.db.url)
    try {
      await other.db.updateTable('counterparties').set({ legal_name: 'Renamed elsewhere', version: 2 }).where('id', '=', counterparty.id).execute()
    } finally {
      await other.close()
    }
    const read = (await t.request({ method: 'GET', url })).json()
    expect(read).toMatchObject({ legalName: 'Renamed elsewhere', version: 2, etag: 'version:2' })
    expect((await listed())?.legalName).toBe('Renamed elsewhere')
  })
})
