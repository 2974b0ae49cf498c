import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** amount[gte] / amount[lte] on the transaction list: signed minor units (money out is negative), within ±(2^53 − 1). */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

async function values(query: string): Promise<number[]> {
  const response = await t.request({ method: 'GET', url: `/financial-data/v2/transactions?limit=500&${query}` })
  expect(response.statusCode).toBe(200)
  return response.json<{ items: Array<{ amount: { value: number } }> }>().items.map((item) => item.amount.value)
}

it('keeps money out below zero and money in above it', async () => {
  const out = await values('amount[lte]=-1')
  const into = await values('amount[gte]=0')
  expect(out.length).toBeGreaterThan(0)
  expect(into.length).toBeGreaterThan(0)
  expect(out.every((value) => value <= -1)).toBe(true)
  expect(into.every((value) => value >= 0)).toBe(true)
})

it('refuses a bound beyond 2^53 either way with a 400 naming it (was a PostgreSQL 500)', async () => {
  for (const [field, value] of [
    ['amount[gte]', '999999999999999999999999999999'],
    ['amount[lte]', '-999999999999999999999999999999'],
    ['amount[gte]', '9007199254740992'],
  ] as const) {
    const response = await t.request({ method: 'GET', url: `/financial-data/v2/transactions?${field}=${value}` })
    expect(response.statusCode).toBe(400)
    expect(response.json<{ details: Array<{ field: string }> }>().details[0]!.field).toBe(field)
  }
})
