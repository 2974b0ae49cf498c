import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../support/test-app.js'
import { expectInvalidField } from './payments-helpers.js'
import { addDays, advanceClock, bankToday, CREDIT_TRANSFERS, createTransfer, expectStatus, setup, transferBody, type Setup } from './lifecycle-helpers.js'
import { createWebhook, deliveriesOf, startWebhookTestApp, WEBHOOKS } from '../webhooks/webhook-helpers.js'

/**
 * Issue 14: on SQLite a payment's create answers its organization's setup reads — approval chains, Owner role,
 * webhooks, the bank's business date, the organization's name, its own account — from memory while nothing of them
 * changed (db/setup-reads.ts, migrations 0025 and 0026). Each change made between two creates must be what the
 * second one sees.
 */
let t: TestApp
let org: Setup
beforeAll(async () => {
  // No payment worker: nothing but these tests moves the bank's clock.
  t = await startWebhookTestApp({ paymentWorkerIntervalMilliseconds: false })
  org = await setup(t)
})
afterAll(() => t.close())

function pay(overrides: Record<string, unknown> = {}) {
  return createTransfer(t, org.as, transferBody(org.eurAccountIds[0]!, org.supplierAccountId, overrides))
}

describe("a credit transfer follows its organization's setup as it changes between creates", () => {
  it('approval chains: a chain made, then deleted, is planned and then no longer', async () => {
    const [ownerStep] = (await pay()).approvalSteps
    const role = await t.request({ method: 'POST', url: '/iam/v2/roles', body: { name: 'Treasury', permissions: ['credit_transfers:read', 'credit_transfers:approve'] }, as: org.as })
    expectStatus(role, 201)
    const chain = await t.request({ method: 'POST', url: '/iam/v2/approval-chains', body: { name: 'Treasury', trigger: {}, steps: [{ requiredRoleIds: [role.json().id] }] }, as: org.as })
    expectStatus(chain, 201)
    expect((await pay()).approvalSteps).toEqual([expect.objectContaining({ approvalChainId: chain.json().id, requiredRoleIds: [role.json().id], status: 'PENDING' })])
    const removed = await t.request({ method: 'DELETE', url: `/iam/v2/approval-chains/${chain.json().id}`, headers: { 'if-match': chain.json().etag }, as: org.as })
    expect(removed.statusCode, removed.body).toBeLessThan(300)
    expect((await pay()).approvalSteps).toEqual([expect.objectContaining({ approvalChainId: ownerStep!.approvalChainId, status: 'PENDING' })])
  })

  it('webhooks: one made after a create gets the next create’s CREATED event; changed to counterparties only, not the one after', async () => {
    await pay()
    const webhook = await createWebhook(t, { url: 'http://127.0.0.1:9/setup-changes' })
    const after = await pay()
    expect((await deliveriesOf(t, webhook.id)).map((delivery) => [delivery.entityId, delivery.event.name])).toContainEqual([after.id, 'CREATED'])
    const changed = await t.request({ method: 'PUT', url: `${WEBHOOKS}/${webhook.id}`, body: { url: webhook.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] } })
    expect(changed.statusCode, changed.body).toBeLessThan(300)
    const later = await pay()
    expect((await deliveriesOf(t, webhook.id)).map((delivery) => delivery.entityId)).not.toContain(later.id)
  })

  it('its own account: new identifiers and BIC from the bank, written between creates, are the next source snapshot', async () => {
    const accountId = org.eurAccountIds[0]!
    const before = await pay()
    const { db } = t.db.database
    const identifiers = [{ market: 'DE', type: 'IBAN', number: 'DE02120300000000202051' }]
    await db.updateTable('accounts').set({ identifiers: JSON.stringify(identifiers), bic: 'BYLADEM1001' }).where('id', '=', accountId).execute()
    try {
      const after = await pay()
      expect(after.source).toMatchObject({ id: accountId, identifiers, bic: 'BYLADEM1001' })
      expect(after.source).not.toEqual(before.source)
    } finally {
      const { identifiers: was, bic } = before.source
      await db.updateTable('accounts').set({ identifiers: JSON.stringify(was), bic: bic ?? null }).where('id', '=', accountId).execute()
    }
    expect((await pay()).source).toEqual(before.source)
  })

  it("the bank's business date: moved on between creates, the old today is past and the new one taken", async () => {
    const today = await bankToday(t, org.as)
    await pay({ date: today })
    await advanceClock(t, org.as, { days: 3 })
    const moved = addDays(today, 3)
    expect(await bankToday(t, org.as)).toBe(moved)
    const past = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: transferBody(org.eurAccountIds[0]!, org.supplierAccountId, { date: today }), as: org.as })
    expectInvalidField(past, 'date')
    expect((await pay({ date: moved })).date).toBe(moved)
  })
})
