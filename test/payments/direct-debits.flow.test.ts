import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'

let t: TestApp
let accountId: string
let externalAccountId: string
const today = new Date().toISOString().slice(0, 10)

beforeAll(async () => {
  t = await startTestApp()
  accountId = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json().items[0].id
  externalAccountId = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json().accounts[0].id
})
afterAll(() => t.close())

const mandate = (overrides: Record<string, unknown> = {}) => ({
  externalAccountId,
  scheme: 'SDD_CORE',
  creditorReference: 'DE98ZZZ09999999999',
  mandateReference: 'MANDATE-0001',
  signatureDate: '2026-01-15',
  ...overrides,
})

const directDebit = (overrides: Record<string, unknown> = {}) => ({
  amount: { currency: 'EUR', stringValue: '49.90' },
  date: today,
  scheme: 'SDD_CORE',
  source: { type: 'EXTERNAL_ACCOUNT', id: externalAccountId },
  destination: { type: 'ACCOUNT', id: accountId },
  reference: 'Subscription November',
  ...overrides,
})

describe('mandates and direct debits', () => {
  it('refuses a direct debit without a mandate, then collects under one', async () => {
    const missing = await t.request({ method: 'POST', url: '/payments/v2/direct-debits', body: directDebit() })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().details[0].field).toBe('source.id')

    const created = await t.request({ method: 'POST', url: '/payments/v2/mandates', body: mandate({ externalId: 'm-1' }) })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toMatchObject({ status: 'CREATED', scheme: 'SDD_CORE', externalAccountId })
    const duplicate = await t.request({ method: 'POST', url: '/payments/v2/mandates', body: mandate() })
    expect(duplicate.statusCode).toBe(409)

    const debit = await t.request({ method: 'POST', url: '/payments/v2/direct-debits', body: directDebit() })
    expect(debit.statusCode).toBe(201)
    const payment = debit.json()
    expect(payment).toMatchObject({
      status: 'CREATED',
      amount: { value: 4990, stringValue: '49.90' },
      mandate: { id: created.json().id, mandateReference: 'MANDATE-0001' },
      source: { type: 'EXTERNAL_ACCOUNT', id: externalAccountId },
      destination: { type: 'ACCOUNT', id: accountId },
    })
    const approved = await t.request({ method: 'POST', url: `/payments/v2/direct-debits/${payment.id}:approve`, body: { approvalStepId: payment.approvalSteps[0].id } })
    expect(approved.statusCode).toBe(202)
    expect(approved.json().status).toBe('APPROVED')
  })

  it('cancels a mandate once; no collection under it afterwards', async () => {
    const created = (await t.request({ method: 'POST', url: '/payments/v2/mandates', body: mandate({ mandateReference: 'MANDATE-0002', scheme: 'SDD_B2B' }) })).json()
    const cancelled = await t.request({ method: 'POST', url: `/payments/v2/mandates/${created.id}:cancel` })
    expect(cancelled.statusCode).toBe(202)
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', version: 2 })
    expect((await t.request({ method: 'POST', url: `/payments/v2/mandates/${created.id}:cancel` })).statusCode).toBe(409)
    const refused = await t.request({ method: 'POST', url: '/payments/v2/direct-debits', body: directDebit({ scheme: 'SDD_B2B', mandateId: created.id }) })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().details[0]).toMatchObject({ field: 'mandateId', error: 'is cancelled' })
    const events = (await t.request({ method: 'GET', url: `/payments/v2/mandates/${created.id}/events` })).json()
    expect(events.items.map((e: { name: string }) => e.name)).toEqual(['CREATED', 'CANCELLED'])
  })
})
