import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { IBANS } from '../support/fixtures.js'

/** The spec's "typical flow for a first payment", through HTTP only, until the bank has booked and Kassa reconciled. */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

const today = new Date().toISOString().slice(0, 10)

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function bookedBalance(accountId: string): Promise<number> {
  const balances = (await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${accountId}/balances?type=BOOKED&mostRecent=true` })).json()
  return balances.items[0].amount.value
}

describe('the first payment', () => {
  it('counterparty → account → credit transfer → owner approval → RECONCILED, booked and on the balance', async () => {
    const counterparty = await t.request({
      method: 'POST',
      url: '/payments/v2/counterparties',
      body: { legalName: 'Nordlicht Consulting GmbH', partyType: 'COMPANY', accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }] }] },
    })
    expect(counterparty.statusCode).toBe(201)
    const destinationId = counterparty.json().accounts[0].id

    const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json()
    const sourceId = accounts.items[0].id
    const balanceBefore = await bookedBalance(sourceId)

    const created = await t.request({
      method: 'POST',
      url: '/payments/v2/credit-transfers',
      headers: { 'idempotency-key': 'first-payment-1' },
      body: { amount: { currency: 'EUR', value: 250_00 }, date: today, scheme: 'SCT', source: { type: 'ACCOUNT', id: sourceId }, destination: { type: 'EXTERNAL_ACCOUNT', id: destinationId }, reference: 'Invoice 42' },
    })
    expect(created.statusCode).toBe(201)
    const payment = created.json()
    expect(payment.status).toBe('CREATED')

    const approved = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${payment.id}:approve`, body: { approvalStepId: payment.approvalSteps[0].id } })
    expect(approved.statusCode).toBe(202)

    const reconciled = await until(
      async () => (await t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${payment.id}` })).json(),
      (p) => p.status === 'RECONCILED' || p.status === 'FAILED',
      'RECONCILED',
    )
    expect(reconciled.status).toBe('RECONCILED')
    expect(reconciled.connectionInstructionId).toBeTruthy()
    expect(reconciled.attachedTransactions).toHaveLength(1)

    const transaction = (await t.request({ method: 'GET', url: `/financial-data/v2/transactions/${reconciled.attachedTransactions[0].id}` })).json()
    expect(transaction).toMatchObject({
      accountId: sourceId,
      amount: { currency: 'EUR', value: -250_00 },
      reconciliationStatus: 'RECONCILED',
      attachedTransactables: [{ type: 'CREDIT_TRANSFER', id: payment.id }],
    })
    expect(await bookedBalance(sourceId)).toBe(balanceBefore - 250_00)

    const events = (await t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${payment.id}/events` })).json()
    expect(events.items.map((e: { name: string }) => e.name)).toEqual([
      'CREATED',
      'FULLY_APPROVED',
      'PENDING_SUBMISSION',
      'SENT_TO_BANK',
      'ACCEPTED_BY_BANK',
      'EXECUTED',
      'RECONCILED',
    ])
    expect(events.items.slice(-2).map((e: { originator: string }) => e.originator)).toEqual(['BANK', 'BANK'])
  })
})
