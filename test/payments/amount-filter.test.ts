import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import {
  BASE,
  createDirectDebit,
  createMandate,
  createTransfer,
  directDebitBody,
  expectStatus,
  setup,
  transferBody,
  type Kind,
  type PaymentJson,
  type Setup,
} from './lifecycle-helpers.js'

/** amount[gte] / amount[lte] on the payment lists (bounds in minor units, inclusive) and currency beside them: all part of the token's filters. */
let t: TestApp
let org: Setup
const amounts: Record<Kind, number[]> = { CREDIT_TRANSFER: [], DIRECT_DEBIT: [] }
const VALUES = [9_99, 100_00, 100_01, 2_500_00]

beforeAll(async () => {
  t = await startTestApp()
  org = await setup(t)
  const mandate = await createMandate(t, org.as, org.supplierAccountId, 'MANDATE-AMOUNT-FILTER')
  for (const value of VALUES) {
    const amount = { currency: 'EUR', value }
    amounts.CREDIT_TRANSFER.push((await createTransfer(t, org.as, transferBody(org.eurAccountIds[0]!, org.supplierAccountId, { amount }))).amount.value)
    const debit = directDebitBody(org.supplierAccountId, org.eurAccountIds[0]!, { amount, mandateId: mandate.id })
    amounts.DIRECT_DEBIT.push((await createDirectDebit(t, org.as, debit)).amount.value)
  }
})
afterAll(() => t.close())

async function list(kind: Kind, query: string) {
  const response = await t.request({ method: 'GET', url: `${BASE[kind]}?${query}`, as: org.as })
  expectStatus(response, 200)
  return response.json<{ items: PaymentJson[]; nextToken: string }>()
}

describe.each(['CREDIT_TRANSFER', 'DIRECT_DEBIT'] as const)('%s list by amount', (kind) => {
  it('keeps the payments within inclusive bounds in minor units', async () => {
    expect(amounts[kind].sort((a, b) => a - b)).toEqual(VALUES)
    const values = async (query: string) => (await list(kind, query)).items.map((item) => item.amount.value).sort((a, b) => a - b)
    expect(await values('amount[gte]=10000&amount[lte]=10001')).toEqual([100_00, 100_01])
    expect(await values('amount[gte]=10001')).toEqual([100_01, 2_500_00])
    expect(await values('amount[lte]=999')).toEqual([9_99])
    expect(await values('amount[gte]=250001')).toEqual([])
  })

  it('refuses an inverted range, a negative bound and one beyond 2^53 (was a PostgreSQL 500)', async () => {
    for (const query of ['amount[gte]=10001&amount[lte]=10000', 'amount[gte]=-1', 'amount[gte]=999999999999999999999999999999']) {
      const response = await t.request({ method: 'GET', url: `${BASE[kind]}?${query}`, as: org.as })
      expectStatus(response, 400)
      expect(response.json<{ details: Array<{ field: string }> }>().details[0]!.field).toBe('amount[gte]')
    }
  })

  it('follows a token only under the amount filter it was issued for', async () => {
    const first = await list(kind, 'limit=1&amount[gte]=10000')
    expect(first.nextToken).not.toBe('')
    const next = await list(kind, `limit=1&amount[gte]=10000&token=${first.nextToken}`)
    expect(next.items.map((item) => item.amount.value)).not.toContain(first.items[0]!.amount.value)
    for (const other of ['amount[gte]=10001', 'amount[lte]=10000', '']) {
      const response = await t.request({ method: 'GET', url: `${BASE[kind]}?limit=1&${other}&token=${first.nextToken}`, as: org.as })
      expectStatus(response, 400)
      expect(response.json<{ code: string }>().code).toBe('invalid_token')
    }
  })
})

/**
 * currency beside the amount bounds: minor units compare only within one currency. SEPA schemes are EUR only, so no
 * API call makes a JPY payment yet; one made as EUR is rewritten to JPY in the database, in an organization of its own.
 */
describe.each(['CREDIT_TRANSFER', 'DIRECT_DEBIT'] as const)('%s list by currency', (kind) => {
  let other: Setup
  const ids: Record<'EUR' | 'JPY', string> = { EUR: '', JPY: '' }

  beforeAll(async () => {
    other = await setup(t, await t.newOrganization('Currency filter'))
    const [accountId, supplierId] = [other.eurAccountIds[0]!, other.supplierAccountId]
    const amount = { currency: 'EUR', value: 5_000 }
    const create =
      kind === 'CREDIT_TRANSFER'
        ? () => createTransfer(t, other.as, transferBody(accountId, supplierId, { amount }))
        : () => createDirectDebit(t, other.as, directDebitBody(supplierId, accountId, { amount }))
    if (kind === 'DIRECT_DEBIT') await createMandate(t, other.as, supplierId, 'MANDATE-CURRENCY-FILTER')
    for (const currency of ['EUR', 'JPY'] as const) ids[currency] = (await create()).id
    await t.db.database.db.updateTable('payments').set({ currency: 'JPY' }).where('id', '=', ids.JPY).execute()
  })

  async function listed(query: string) {
    const response = await t.request({ method: 'GET', url: `${BASE[kind]}?${query}`, as: other.as })
    expectStatus(response, 200)
    return response.json<{ items: PaymentJson[]; nextToken: string }>()
  }

  it("keeps only the chosen currency's payments of the same minor value", async () => {
    const range = 'amount[gte]=5000&amount[lte]=5000'
    expect((await listed(range)).items.map((item) => item.id).sort()).toEqual([ids.EUR, ids.JPY].sort())
    for (const currency of ['EUR', 'JPY'] as const) {
      const { items } = await listed(`${range}&currency=${currency}`)
      expect(items.map((item) => [item.id, item.amount.currency, item.amount.value])).toEqual([[ids[currency], currency, 5_000]])
      expect((await listed(`currency=${currency}`)).items.map((item) => item.id)).toEqual([ids[currency]])
    }
    expect((await listed(`${range}&currency=SEK`)).items).toEqual([])
  })

  it('refuses a code that is no ISO 4217 currency', async () => {
    for (const currency of ['eur', 'EURO', 'ZZZ']) {
      const response = await t.request({ method: 'GET', url: `${BASE[kind]}?currency=${currency}`, as: other.as })
      expectStatus(response, 400)
      expect(response.json<{ details: Array<{ field: string }> }>().details[0]!.field).toBe('currency')
    }
  })

  it('follows a token only under the currency it was issued for', async () => {
    const first = await listed('limit=1&amount[gte]=5000')
    expect(first.nextToken).not.toBe('')
    for (const currency of ['EUR', 'JPY']) {
      const response = await t.request({ method: 'GET', url: `${BASE[kind]}?limit=1&amount[gte]=5000&currency=${currency}&token=${first.nextToken}`, as: other.as })
      expectStatus(response, 400)
      expect(response.json<{ code: string }>().code).toBe('invalid_token')
    }
  })
})
