import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

it('lists transactions and balances', async () => {
  const transactions = await t.request({ method: 'GET', url: '/financial-data/v2/transactions?limit=5' })
  expect(transactions.statusCode).toBe(200)
  expect(transactions.json()).toMatchObject({ limit: 5 })
  expect(transactions.json().items).toHaveLength(5)
  const balances = await t.request({ method: 'GET', url: '/financial-data/v2/accounts/-/balances?mostRecent=true' })
  expect(balances.statusCode).toBe(200)
})
