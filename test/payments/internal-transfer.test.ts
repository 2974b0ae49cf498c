import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

async function booked(accountId: string): Promise<number> {
  const page = (await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${accountId}/balances?type=BOOKED&mostRecent=true` })).json()
  return page.items[0].amount.value
}

it('a transfer between two own accounts debits one and credits the other', async () => {
  const [operating, payroll] = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json().items
  const before = { operating: await booked(operating.id), payroll: await booked(payroll.id) }
  const today = new Date().toISOString().slice(0, 10)
  const payment = (
    await t.request({
      method: 'POST',
      url: '/payments/v2/credit-transfers',
      body: { amount: { currency: 'EUR', value: 100_00 }, date: today, scheme: 'SCT', source: { type: 'ACCOUNT', id: operating.id }, destination: { type: 'ACCOUNT', id: payroll.id }, reference: 'Payroll funding' },
    })
  ).json()
  await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:approve`, body: { approvalStepId: payment.approvalSteps[0].id } })
  const deadline = Date.now() + 15_000
  let status = ''
  while (Date.now() < deadline && status !== 'RECONCILED') {
    status = (await t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${payment.id}` })).json().status
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  expect(status).toBe('RECONCILED')
  expect(await booked(operating.id)).toBe(before.operating - 100_00)
  expect(await booked(payroll.id)).toBe(before.payroll + 100_00)
  const credits = (await t.request({ method: 'GET', url: `/financial-data/v2/transactions?accountId=${payroll.id}&limit=1` })).json().items
  expect(credits[0]).toMatchObject({ amount: { value: 100_00 }, bankTransactionCode: { domain: 'PMNT', family: 'RCDT', subfamily: 'BOOK' } })
})
