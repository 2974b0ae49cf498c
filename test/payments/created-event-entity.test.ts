import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CREDIT_TRANSFERS, createMandate, DIRECT_DEBITS, directDebitBody, expectStatus, setup, transferBody, type Setup } from './lifecycle-helpers.js'

/**
 * Issue 14: a payment's create serializes the new payment once — its response, the answer stored for its
 * Idempotency-Key and its CREATED event's entity are the same bytes (CommandContext.asSent).
 */
let t: TestApp
let org: Setup
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  org = await setup(t)
})
afterAll(() => t.close())

async function storedOf(entityId: string) {
  const { db } = t.db.database
  const event = await db.selectFrom('events').select(['entity', 'name']).where('entity_id', '=', entityId).where('sequence', '=', 1).executeTakeFirstOrThrow()
  return event
}

describe("a payment's CREATED event", () => {
  it('stores the credit transfer as it was answered, byte for byte, and as the Idempotency-Key replays it', async () => {
    const key = 'created-event-entity-1'
    const body = transferBody(org.eurAccountIds[0]!, org.supplierAccountId)
    const created = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers: { 'idempotency-key': key } })
    expectStatus(created, 201)
    const event = await storedOf(created.json().id)
    expect(event.name).toBe('CREATED')
    expect(event.entity).toBe(created.body)
    const replay = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers: { 'idempotency-key': key } })
    expect(replay.body).toBe(created.body)
  })

  it('stores the direct debit as it was answered, byte for byte', async () => {
    await createMandate(t, org.as, org.supplierAccountId, 'MANDATE-EVENT-ENTITY')
    const created = await t.request({ method: 'POST', url: DIRECT_DEBITS, body: directDebitBody(org.supplierAccountId, org.eurAccountIds[0]!), headers: { 'idempotency-key': 'created-event-entity-2' } })
    expectStatus(created, 201)
    expect((await storedOf(created.json().id)).entity).toBe(created.body)
  })

  it('without an Idempotency-Key too', async () => {
    const created = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: transferBody(org.eurAccountIds[0]!, org.supplierAccountId) })
    expectStatus(created, 201)
    expect((await storedOf(created.json().id)).entity).toBe(created.body)
  })
})
