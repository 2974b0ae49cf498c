import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'

let t: TestApp
let sourceId: string
let destinationId: string
const today = new Date().toISOString().slice(0, 10)

beforeAll(async () => {
  t = await startTestApp()
  const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json()
  sourceId = accounts.items[0].id
  const counterparty = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json()
  destinationId = counterparty.accounts[0].id
})
afterAll(() => t.close())

function transfer(overrides: Record<string, unknown> = {}) {
  return {
    amount: { currency: 'EUR', value: 12_500 },
    date: today,
    scheme: 'SCT',
    source: { type: 'ACCOUNT', id: sourceId },
    destination: { type: 'EXTERNAL_ACCOUNT', id: destinationId },
    reference: 'Invoice 2026-114',
    ...overrides,
  }
}

describe('credit transfers: create and approve as owner', () => {
  it('creates a CREATED payment with the Owner step, and the Owner approves it', async () => {
    const created = await t.request({ method: 'POST', url: '/payments/v2/credit-transfers', body: transfer() })
    expect(created.statusCode).toBe(201)
    const payment = created.json()
    expect(payment).toMatchObject({ status: 'CREATED', amount: { currency: 'EUR', value: 12_500, stringValue: '125.00' }, creatorUserId: t.owner.userId })
    expect(payment.approvalSteps).toHaveLength(1)
    expect(payment.approvalSteps[0]).toMatchObject({ status: 'PENDING', autoApproved: false, allowCreatorApproval: true })
    expect(payment.destinationHolder).toMatchObject({ type: 'COUNTERPARTY', legalName: 'Acme GmbH' })

    const approved = await t.request({
      method: 'POST',
      url: `/payments/v2/credit-transfers/${payment.id}:approve`,
      body: { approvalStepId: payment.approvalSteps[0].id },
    })
    expect(approved.statusCode).toBe(202)
    expect(approved.json()).toMatchObject({ status: 'APPROVED', version: 2 })
    expect(approved.json().approvalSteps[0]).toMatchObject({ status: 'APPROVED', approver: { id: t.owner.userId } })

    const again = await t.request({
      method: 'POST',
      url: `/payments/v2/credit-transfers/${payment.id}:approve`,
      body: { approvalStepId: payment.approvalSteps[0].id },
    })
    expect(again.statusCode).toBe(409)

    const events = (await t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${payment.id}/events` })).json()
    // The payment worker may already have moved it on towards the bank.
    expect(events.items.map((e: { name: string }) => e.name).slice(0, 2)).toEqual(['CREATED', 'FULLY_APPROVED'])
  })

  it('refuses an admin approving the Owner step (403) and lets them reject', async () => {
    const admin = await t.newKey('admin')
    const payment = (await t.request({ method: 'POST', url: '/payments/v2/credit-transfers', body: transfer() })).json()
    const denied = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:approve`, body: { approvalStepId: payment.approvalSteps[0].id }, as: admin })
    expect(denied.statusCode).toBe(403)
    const rejected = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:reject`, body: { reason: 'duplicate invoice' }, as: admin })
    expect(rejected.statusCode).toBe(202)
    expect(rejected.json().status).toBe('REJECTED')
  })

  it('validates like a bank: past date, wrong currency, unsupported scheme, bad reference', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ date: '2020-01-01' }, 'date'],
      [{ amount: { currency: 'SEK', value: 100 } }, 'amount.currency'],
      [{ amount: { currency: 'EUR', value: 0 } }, 'amount.value'],
      [{ scheme: 'US_CT_ACH' }, 'scheme'],
      [{ reference: 'Zahlung für Müller' }, 'reference'],
      [{ source: { type: 'ACCOUNT', id: '01900000-0000-7000-8000-000000000000' } }, 'source.id'],
    ]
    for (const [overrides, field] of cases) {
      const response = await t.request({ method: 'POST', url: '/payments/v2/credit-transfers', body: transfer(overrides) })
      expect(response.statusCode, field).toBe(400)
      expect(response.json().details[0].field, JSON.stringify(overrides)).toBe(field)
    }
  })

  // issue 14: on PostgreSQL the new payment's rows go out unanswered with COMMIT, whose answer reports the violation.
  it('answers a taken externalId with 409 external_id_taken, stored under its Idempotency-Key, and writes nothing', async () => {
    const first = await t.request({ method: 'POST', url: '/payments/v2/credit-transfers', body: transfer({ externalId: 'erp-4711' }) })
    expect(first.statusCode).toBe(201)
    const listed = async () => (await t.request({ method: 'GET', url: '/payments/v2/credit-transfers?limit=100' })).json().items.length
    const before = await listed()
    const headers = { 'idempotency-key': 'taken-external-id' }
    const refused = await t.request({ method: 'POST', url: '/payments/v2/credit-transfers', headers, body: transfer({ externalId: 'erp-4711', reference: 'Invoice 4711' }) })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().code).toBe('external_id_taken')
    const replayed = await t.request({ method: 'POST', url: '/payments/v2/credit-transfers', headers, body: transfer({ externalId: 'erp-4711', reference: 'Invoice 4711' }) })
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(replayed.body).toBe(refused.body)
    expect(await listed()).toBe(before)
    const events = (await t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${first.json().id}/events` })).json()
    expect(events.items.filter((event: { name: string }) => event.name === 'CREATED')).toHaveLength(1)
  })

  it('changes the date with replace /date only', async () => {
    const payment = (await t.request({ method: 'POST', url: '/payments/v2/credit-transfers', body: transfer() })).json()
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
    const patched = await t.request({ method: 'PATCH', url: `/payments/v2/credit-transfers/${payment.id}`, headers: { 'if-match': payment.etag }, body: [{ op: 'replace', path: '/date', value: later }] })
    expect(patched.statusCode).toBe(202)
    expect(patched.json()).toMatchObject({ date: later, version: 2 })
    const refused = await t.request({ method: 'PATCH', url: `/payments/v2/credit-transfers/${payment.id}`, headers: { 'if-match': 'version:2' }, body: [{ op: 'replace', path: '/reference', value: 'x' }] })
    expect(refused.statusCode).toBe(400)
  })
})
