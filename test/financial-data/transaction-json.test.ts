import { afterAll, beforeAll, expect, it } from 'vitest'
import { newId } from '../../src/shared/ids.js'
import type { TransactionsTable } from '../../src/db/schema.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/**
 * Issue 14: the transactions page is made of each row's JSON text (transactionJson), its stored JSON spliced in.
 * Each item must be exactly what GET by id serves — toTransaction's object serialized by the route's schema — for
 * every kind of row: the sandbox's bookings, and rows with every optional field present, absent, or awkward.
 */
let t: TestApp
let accountId: string
beforeAll(async () => {
  t = await startTestApp()
  accountId = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?limit=1' })).json().items[0].id
  const organizationId = t.owner.organizationId
  const now = new Date().toISOString()
  const row = (n: number, fields: Partial<TransactionsTable>): TransactionsTable => ({
    id: newId(),
    organization_id: organizationId,
    account_id: accountId,
    amount: -12_345,
    currency: 'EUR',
    date: '2020-01-01',
    value_date: '2020-01-02',
    date_source: null,
    description: `Crafted ${n}`,
    reference: null,
    end_to_end_id: null,
    mandate_reference: null,
    counterparty: null,
    bank_transaction_code: null,
    reconciliation_status: 'NOT_RECONCILED',
    attached_transactables: '[]',
    returned: 0,
    return_reason: null,
    entry_reference: `CRAFTED-${n}`,
    metadata: '{}',
    version: 1,
    created: now,
    updated: now,
    ...fields,
  })
  await t.db.database.db
    .insertInto('transactions')
    .values([
      row(1, {}),
      row(2, {
        amount: 1,
        date_source: 'VALUE_DATE',
        description: 'Quotes " and \\ and \u2028 and émoji 🧾',
        reference: 'RF18 0000 "ref"',
        end_to_end_id: 'E2E-1',
        mandate_reference: 'MANDATE-1',
        counterparty: JSON.stringify({ partyType: 'COMPANY', name: 'Müller & "Söhne"', account: { market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }], bic: 'COBADEFFXXX' } }),
        bank_transaction_code: JSON.stringify({ proprietary: { code: 'NTRF', issuer: 'SWIFT' }, description: 'Transfer', domain: 'PMNT', family: 'RCDT', subfamily: 'ESCT' }),
        reconciliation_status: 'RECONCILED',
        attached_transactables: JSON.stringify([{ type: 'CREDIT_TRANSFER', id: newId() }]),
        returned: 1,
        return_reason: JSON.stringify({ code: 'AC04', description: 'Closed account' }),
        metadata: JSON.stringify({ invoice: 'INV-1', 'cost.center+1': 'line\nbreak "quoted"' }),
        version: 7,
      }),
      row(3, { date_source: 'STATEMENT_DATE', counterparty: JSON.stringify({ name: 'Only a name' }) }),
      row(4, { counterparty: JSON.stringify({ account: { identifiers: [], rawIdentifier: '12345678' } }), return_reason: JSON.stringify({ code: 'MD06' }) }),
    ])
    .execute()
})
afterAll(() => t?.close())

it('serves each transaction on a page exactly as GET by id serves it', async () => {
  const page = await t.request({ method: 'GET', url: '/financial-data/v2/transactions?limit=500' })
  expect(page.statusCode).toBe(200)
  expect(page.headers['content-type']).toBe('application/json; charset=utf-8')
  const { items, nextToken, token, limit } = page.json()
  expect({ nextToken, token, limit }).toEqual({ nextToken: '', token: '', limit: 500 })
  // The sandbox's bookings and the four crafted rows.
  expect(items.length).toBeGreaterThan(4)
  for (const item of items) {
    const one = await t.request({ method: 'GET', url: `/financial-data/v2/transactions/${item.id}` })
    expect(item).toStrictEqual(one.json())
  }
  const crafted = items.filter((item: { entryReference?: string; references: { entryReference: string } }) => item.references.entryReference.startsWith('CRAFTED-'))
  expect(crafted).toHaveLength(4)
  expect(crafted.find((item: { description: string }) => item.description === 'Crafted 4').counterparty).toEqual({
    account: { identifiers: [], routing: [], rawIdentifier: '12345678' },
  })
})

it('pages with the same envelope and tokens as every list', async () => {
  const first = (await t.request({ method: 'GET', url: `/financial-data/v2/transactions?accountId=${accountId}&limit=2` })).json()
  expect(first.items).toHaveLength(2)
  expect(first.limit).toBe(2)
  expect(first.nextToken).not.toBe('')
  const second = (await t.request({ method: 'GET', url: `/financial-data/v2/transactions?accountId=${accountId}&limit=2&token=${first.nextToken}` })).json()
  expect(second.token).toBe(first.nextToken)
  expect(second.items.map((item: { id: string }) => item.id)).not.toContain(first.items[0].id)
  expect(second.items.map((item: { id: string }) => item.id)).not.toContain(first.items[1].id)
})
