import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectInvalidField, patch } from './payments-helpers.js'
import {
  addDays,
  advanceClock,
  bankToday,
  CREDIT_TRANSFERS,
  createMandate,
  createTransfer,
  DIRECT_DEBITS,
  directDebitBody,
  expectStatus,
  setup,
  todayUtc,
  transferBody,
  type PaymentJson,
  type Setup,
} from './lifecycle-helpers.js'

/**
 * reference §2.7: a payment's date may be neither in the past nor more than 60 days ahead — of the
 * business date of the own account's bank, not of the calendar. A sandbox bank whose clock runs
 * 90 days ahead takes payments dated its today, and refuses the calendar's today as past.
 */
let t: TestApp
let org: Setup
let bankDate: string
beforeAll(async () => {
  // No payment worker: nothing but these tests moves the bank's clock.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  org = await setup(t, await t.newOrganization('Ninety days ahead'))
  await advanceClock(t, org.as, { days: 90 })
  bankDate = await bankToday(t, org.as)
})
afterAll(() => t.close())

describe('the bank clock 90 days ahead of the calendar', () => {
  it('is where the test starts', () => {
    expect(bankDate).toBe(addDays(todayUtc(), 90))
  })

  it("credit transfers: the bank's today and 60 days after it are accepted; the day after that and the calendar's today are not", async () => {
    const [source] = org.eurAccountIds
    for (const date of [bankDate, addDays(bankDate, 60)]) {
      expect((await createTransfer(t, org.as, transferBody(source!, org.supplierAccountId, { date }))).date).toBe(date)
    }
    const tooFar = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: transferBody(source!, org.supplierAccountId, { date: addDays(bankDate, 61) }), as: org.as })
    expect(expectInvalidField(tooFar, 'date').details).toContainEqual(expect.objectContaining({ error: expect.stringContaining(`at most 60 days ahead of the bank's business date ${bankDate}`) }))
    const past = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: transferBody(source!, org.supplierAccountId, { date: todayUtc() }), as: org.as })
    expect(expectInvalidField(past, 'date').details).toContainEqual(expect.objectContaining({ error: expect.stringContaining('in the past') }))
  })

  it("changing a credit transfer's date follows the same window", async () => {
    const transfer = await createTransfer(t, org.as, transferBody(org.eurAccountIds[0]!, org.supplierAccountId, { date: bankDate }))
    const url = `${CREDIT_TRANSFERS}/${transfer.id}`
    expectInvalidField(await patch(t, url, transfer.etag, [{ op: 'replace', path: '/date', value: todayUtc() }], org.as), 'date')
    expectInvalidField(await patch(t, url, transfer.etag, [{ op: 'replace', path: '/date', value: addDays(bankDate, 61) }], org.as), 'date')
    const moved = await patch(t, url, transfer.etag, [{ op: 'replace', path: '/date', value: addDays(bankDate, 60) }], org.as)
    expectStatus(moved, 202)
    expect(moved.json<PaymentJson>().date).toBe(addDays(bankDate, 60))
  })

  it("direct debits: dated from the bank's today of the account collected into, the same window", async () => {
    await createMandate(t, org.as, org.supplierAccountId, 'MANDATE-AHEAD-1')
    const [destination] = org.eurAccountIds
    for (const date of [bankDate, addDays(bankDate, 60)]) {
      const created = await t.request({ method: 'POST', url: DIRECT_DEBITS, body: directDebitBody(org.supplierAccountId, destination!, { date }), as: org.as })
      expectStatus(created, 201)
      expect(created.json<PaymentJson>().date).toBe(date)
    }
    for (const date of [addDays(bankDate, 61), todayUtc()]) {
      expectInvalidField(await t.request({ method: 'POST', url: DIRECT_DEBITS, body: directDebitBody(org.supplierAccountId, destination!, { date }), as: org.as }), 'date')
    }
  })

  it("leaves another organization's bank, still at the calendar's today, as it was", async () => {
    const other = await setup(t, await t.newOrganization('On time'))
    expect(await bankToday(t, other.as)).toBe(todayUtc())
    await createTransfer(t, other.as, transferBody(other.eurAccountIds[0]!, other.supplierAccountId, { date: todayUtc() }))
    const ahead = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: transferBody(other.eurAccountIds[0]!, other.supplierAccountId, { date: bankDate }), as: other.as })
    expectInvalidField(ahead, 'date')
  })
})
