import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/**
 * Issue 10: `:reject` takes an optional reason, kept on the payment and in its events, and an absent body.
 * Who may reject, decided: any user whose role has the payment kind's approve permission — also one who may
 * not approve the pending step (an admin facing the Owner's step), as in the reference, where rejecting does
 * not require the step's approver role. A rejection only stops a payment: it moves no money, so the
 * four-eyes rule that guards approving has nothing to guard here. A role without the permission is refused.
 */

let t: TestApp
let sourceId: string
let destinationId: string

beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  const clock = (await t.request({ method: 'GET', url: '/v1/sandbox/clock' })).json()
  const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json()
  sourceId = accounts.items[0].id
  const counterparty = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json()
  destinationId = counterparty.accounts[0].id
  today = clock.today
})
afterAll(() => t.close())

let today = ''

async function createTransfer(): Promise<{ id: string; approvalSteps: { id: string }[] }> {
  const created = await t.request({
    method: 'POST',
    url: '/payments/v2/credit-transfers',
    body: {
      amount: { currency: 'EUR', value: 4_200 },
      date: today,
      scheme: 'SCT',
      source: { type: 'ACCOUNT', id: sourceId },
      destination: { type: 'EXTERNAL_ACCOUNT', id: destinationId },
      reference: 'Invoice 2026-7',
    },
  })
  expect(created.statusCode).toBe(201)
  return created.json()
}

describe('rejecting a payment', () => {
  it('keeps the reason on the payment (statusReason.message) and in its REJECTED event', async () => {
    const payment = await createTransfer()
    const rejected = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject`, body: { reason: 'Duplicate of invoice 2026-6' } })
    expect(rejected.statusCode).toBe(202)
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', statusReason: { message: 'Duplicate of invoice 2026-6' } })
    const read = (await t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${payment.id}` })).json()
    expect(read).toMatchObject({ status: 'REJECTED', statusReason: { message: 'Duplicate of invoice 2026-6' } })
    const events = (await t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${payment.id}/events` })).json()
    const rejection = events.items.find((event: { name: string }) => event.name === 'REJECTED')
    expect(rejection).toMatchObject({ message: 'Duplicate of invoice 2026-6' })
  })

  it('takes no body, an empty body with a JSON content type, or {}', async () => {
    const sends: { headers?: Record<string, string>; body?: unknown }[] = [
      {},
      { headers: { 'content-type': 'application/json' }, body: '' },
      { body: {} },
    ]
    for (const send of sends) {
      const payment = await createTransfer()
      const rejected = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject`, ...send })
      expect(rejected.statusCode, JSON.stringify(send)).toBe(202)
      expect(rejected.json().status).toBe('REJECTED')
    }
  })

  it('may be done by an admin, who may not approve the Owner step, and not by a read-only key', async () => {
    const admin = await t.newKey('admin')
    const readOnly = await t.newKey('read-only')
    const payment = await createTransfer()
    const approve = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:approve`, body: { approvalStepId: payment.approvalSteps[0]!.id }, as: admin })
    expect(approve.statusCode).toBe(403)
    const refused = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject`, body: { reason: 'no' }, as: readOnly })
    expect(refused.statusCode).toBe(403)
    const rejected = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject`, body: { reason: 'Not ours' }, as: admin })
    expect(rejected.statusCode).toBe(202)
    expect(rejected.json().approvalSteps[0]).toMatchObject({ status: 'REJECTED', approver: { id: admin.userId } })
  })

  it('tolerates the approvalStepId the reference\'s clients send, when it is one of the payment\'s steps', async () => {
    const payment = await createTransfer()
    const other = await createTransfer()
    const wrong = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject`, body: { approvalStepId: other.approvalSteps[0]!.id } })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().details[0]).toMatchObject({ field: 'approvalStepId' })
    const rejected = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject`, body: { approvalStepId: payment.approvalSteps[0]!.id } })
    expect(rejected.statusCode).toBe(202)
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', statusReason: { code: 'CUST' } })
  })

  it('refuses a reason over 255 characters, and a second rejection', async () => {
    const payment = await createTransfer()
    const long = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject`, body: { reason: 'x'.repeat(256) } })
    expect(long.statusCode).toBe(400)
    expect(long.json().details[0].field).toBe('reason')
    expect((await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject` })).statusCode).toBe(202)
    expect((await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject` })).statusCode).toBe(409)
  })
})
