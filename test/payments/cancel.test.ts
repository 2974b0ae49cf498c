import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { submitPayment } from '../../src/payments/processing/payment-submitter.js'
import { IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError, expectInvalidField } from './payments-helpers.js'
import {
  approveAsOwner,
  BASE,
  createDirectDebit,
  createMandate,
  createTransfer,
  CREDIT_TRANSFERS,
  directDebitBody,
  eventsOf,
  expectNeverSent,
  expectStatus,
  getPayment,
  MISSING_ID,
  settled,
  setup,
  todayUtc,
  transferBody,
  type Kind,
  type PaymentJson,
  type Setup,
} from './lifecycle-helpers.js'

/**
 * Issue 12: `POST …/{id}:cancel` on credit transfers and direct debits. A payment the bank does not have yet
 * (CREATED, APPROVED, PENDING_SUBMISSION — also one waiting for a bank connection that does not exist)
 * becomes CANCELLED, final, with its event and webhook delivery; once sent, a 409 that says the bank has it.
 * The permission is the kind's update (as the reference's mandate :cancel needs mandates:update). `idle`
 * runs no payment worker, so an approved payment stays APPROVED; `live` submits approved payments at once.
 */
let idle: TestApp
let live: TestApp
let idleOrg: Setup
let liveOrg: Setup
beforeAll(async () => {
  ;[idle, live] = await Promise.all([
    startTestApp({ paymentWorkerIntervalMilliseconds: false, webhookAllowLoopback: true, webhooks: { startWorker: false } }),
    startTestApp(),
  ])
  ;[idleOrg, liveOrg] = await Promise.all([setup(idle), setup(live)])
})
afterAll(async () => {
  await Promise.all([idle?.close(), live?.close()])
})

function cancel(t: TestApp, kind: Kind, ref: string, options: { body?: unknown; as?: Credentials; headers?: Record<string, string> } = {}) {
  return t.request({ method: 'POST', url: `${BASE[kind]}/${ref}:cancel`, ...options })
}

async function expectCancelled(t: TestApp, as: Credentials, kind: Kind, payment: PaymentJson, reason?: string): Promise<void> {
  const read = await getPayment(t, as, kind, payment.id)
  expect(read).toMatchObject({ status: 'CANCELLED', statusReason: reason === undefined ? { code: 'CUST' } : { code: 'CUST', message: reason } })
  expect(read.version).toBe(payment.version + 1)
  const last = (await eventsOf(t, as, kind, payment.id)).at(-1)
  expect(last).toMatchObject({ type: 'UPDATED', name: 'CANCELLED', originator: as.userId, message: reason ?? 'Cancelled', entityVersion: read.version })
}

describe('cancelling before the bank has the payment', () => {
  it('cancels a CREATED credit transfer: 202, CANCELLED with the reason, its event, the step left as it was', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    const response = await cancel(idle, 'CREDIT_TRANSFER', payment.id, { body: { reason: 'Paid by card instead' } })
    expectStatus(response, 202)
    expect(response.json()).toMatchObject({ id: payment.id, status: 'CANCELLED', statusReason: { code: 'CUST', message: 'Paid by card instead' } })
    expect(response.json().approvalSteps).toEqual([expect.objectContaining({ status: 'PENDING' })])
    await expectCancelled(idle, idle.owner, 'CREDIT_TRANSFER', payment, 'Paid by card instead')
  })

  it('cancels an APPROVED credit transfer without a body; a submission that read it before finds it CANCELLED and sends nothing', async () => {
    const created = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    const approved = await approveAsOwner(idle, idle.owner, 'CREDIT_TRANSFER', created)
    // The payment worker's queue entry, read while the payment was still APPROVED.
    const queued = await idle.db.database.db.selectFrom('payments').selectAll().where('id', '=', approved.id).executeTakeFirstOrThrow()
    expectStatus(await cancel(idle, 'CREDIT_TRANSFER', approved.id), 202)
    await expectCancelled(idle, idle.owner, 'CREDIT_TRANSFER', approved)
    expect(await submitPayment(idle.db.database, queued)).toBe(false)
    expect((await getPayment(idle, idle.owner, 'CREDIT_TRANSFER', approved.id)).status).toBe('CANCELLED')
    await expectNeverSent(idle, idle.owner, 'CREDIT_TRANSFER', approved.id)
  })

  it('cancels a payment waiting in PENDING_SUBMISSION because no bank connection serves its account', async () => {
    const account = await live.request({
      method: 'POST',
      url: '/financial-data/v2/accounts',
      body: { name: 'Geschäftskonto', market: 'NL', currency: 'EUR', bank: { name: 'ABN AMRO', bic: 'ABNANL2A' }, identifiers: [{ market: 'NL', type: 'IBAN', number: IBANS.nl }] },
    })
    expectStatus(account, 201)
    const created = await createTransfer(live, live.owner, transferBody(account.json().id, liveOrg.supplierAccountId, { date: todayUtc() }))
    await approveAsOwner(live, live.owner, 'CREDIT_TRANSFER', created)
    const waiting = await settled(live, live.owner, 'CREDIT_TRANSFER', created.id, ['PENDING_SUBMISSION'])
    const pending = (await eventsOf(live, live.owner, 'CREDIT_TRANSFER', created.id)).at(-1)
    expect(pending).toMatchObject({ name: 'PENDING_SUBMISSION', message: 'No bank connection serves the account yet: the payment waits here' })

    expectStatus(await cancel(live, 'CREDIT_TRANSFER', created.id, { body: { reason: 'No connection to ABN AMRO yet' } }), 202)
    await expectCancelled(live, live.owner, 'CREDIT_TRANSFER', waiting, 'No connection to ABN AMRO yet')
    await expectNeverSent(live, live.owner, 'CREDIT_TRANSFER', created.id)
  })

  it('cancels CREATED and APPROVED direct debits, by id and by external:{externalId}', async () => {
    const mandate = await createMandate(idle, idle.owner, idleOrg.supplierAccountId, 'MANDATE-CANCEL-1')
    const body = (externalId: string) => directDebitBody(idleOrg.supplierAccountId, idleOrg.eurAccountIds[0]!, { mandateId: mandate.id, externalId })
    const created = await createDirectDebit(idle, idle.owner, body('dd-cancel-created'))
    expectStatus(await cancel(idle, 'DIRECT_DEBIT', 'external:dd-cancel-created'), 202)
    await expectCancelled(idle, idle.owner, 'DIRECT_DEBIT', created)
    const approved = await approveAsOwner(idle, idle.owner, 'DIRECT_DEBIT', await createDirectDebit(idle, idle.owner, body('dd-cancel-approved')))
    expectStatus(await cancel(idle, 'DIRECT_DEBIT', approved.id, { body: { reason: 'Customer paid by transfer' } }), 202)
    await expectCancelled(idle, idle.owner, 'DIRECT_DEBIT', approved, 'Customer paid by transfer')
    await expectNeverSent(idle, idle.owner, 'DIRECT_DEBIT', approved.id)
  })

  it('writes the webhook delivery of the CANCELLED event with the change', async () => {
    const webhook = await idle.request({ method: 'POST', url: '/v1/webhooks', body: { url: 'http://127.0.0.1:9/kassa', filter: [{ resource: 'credit_transfers', apiVersion: 2, events: ['CANCELLED'] }] } })
    expectStatus(webhook, 201)
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expectStatus(await cancel(idle, 'CREDIT_TRANSFER', payment.id), 202)
    const deliveries = await idle.request({ method: 'GET', url: `/v1/webhooks/${webhook.json().id}/deliveries` })
    expect(deliveries.json().items).toEqual([expect.objectContaining({ entityId: payment.id, event: { id: 2, type: 'UPDATED', name: 'CANCELLED' } })])
  })
})

describe('cancelling too late', () => {
  it('answers 409 once the bank has a credit transfer, saying so, and changes nothing', async () => {
    const created = await createTransfer(live, live.owner, transferBody(liveOrg.eurAccountIds[0]!, liveOrg.supplierAccountId))
    await approveAsOwner(live, live.owner, 'CREDIT_TRANSFER', created)
    const reconciled = await settled(live, live.owner, 'CREDIT_TRANSFER', created.id, ['RECONCILED'])
    const refused = expectError(await cancel(live, 'CREDIT_TRANSFER', created.id), 409, 'conflict')
    expect(refused.message).toBe(
      'The payment is RECONCILED: it was sent to the bank, which has it now, so it can no longer be cancelled here; ask the bank to recall it',
    )
    expect(await getPayment(live, live.owner, 'CREDIT_TRANSFER', created.id)).toEqual(reconciled)
  })

  it('answers 409 for a sent direct debit', async () => {
    const mandate = await createMandate(live, live.owner, liveOrg.supplierAccountId, 'MANDATE-CANCEL-LATE')
    const created = await createDirectDebit(live, live.owner, directDebitBody(liveOrg.supplierAccountId, liveOrg.eurAccountIds[0]!, { mandateId: mandate.id }))
    await approveAsOwner(live, live.owner, 'DIRECT_DEBIT', created)
    const sent = await settled(live, live.owner, 'DIRECT_DEBIT', created.id, ['SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED', 'RECONCILED'])
    const refused = expectError(await cancel(live, 'DIRECT_DEBIT', created.id), 409, 'conflict')
    expect(refused.message).toMatch(/^The payment is [A-Z_]+: it was sent to the bank, which has it now/)
    expect((await eventsOf(live, live.owner, 'DIRECT_DEBIT', sent.id)).map((event) => event.name)).not.toContain('CANCELLED')
  })

  it('answers 409 for a final payment: REJECTED, or already CANCELLED', async () => {
    const rejected = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expectStatus(await idle.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${rejected.id}:reject` }), 202)
    expect(expectError(await cancel(idle, 'CREDIT_TRANSFER', rejected.id), 409, 'conflict').message).toBe(
      'The payment is REJECTED, which is final: there is nothing to cancel',
    )
    const cancelled = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expectStatus(await cancel(idle, 'CREDIT_TRANSFER', cancelled.id), 202)
    expect(expectError(await cancel(idle, 'CREDIT_TRANSFER', cancelled.id), 409, 'conflict').message).toBe('The payment is already CANCELLED')
    expect(expectError(await idle.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${cancelled.id}:approve`, body: { approvalStepId: cancelled.approvalSteps[0]!.id } }), 409, 'conflict').message).toBe(
      'The payment is CANCELLED; only a CREATED payment awaits approval',
    )
  })
})

describe('requests', () => {
  it('replays a retry with the same Idempotency-Key: one cancellation, one event; another body with the key is a 422', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    const headers = { 'idempotency-key': `cancel-${payment.id}` }
    const first = await cancel(idle, 'CREDIT_TRANSFER', payment.id, { body: { reason: 'Duplicate' }, headers })
    const retry = await cancel(idle, 'CREDIT_TRANSFER', payment.id, { body: { reason: 'Duplicate' }, headers })
    expectStatus(retry, 202)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.json()).toEqual(first.json())
    expect((await eventsOf(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).filter((event) => event.name === 'CANCELLED')).toHaveLength(1)
    expectError(await cancel(idle, 'CREDIT_TRANSFER', payment.id, { body: { reason: 'Something else' }, headers }), 422, 'idempotency_key_reused')
  })

  it('refuses a reason over 255 characters and unknown fields: 400 naming the field', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expectInvalidField(await cancel(idle, 'CREDIT_TRANSFER', payment.id, { body: { reason: 'x'.repeat(256) } }), 'reason')
    expectInvalidField(await cancel(idle, 'CREDIT_TRANSFER', payment.id, { body: { approvalStepId: payment.approvalSteps[0]!.id } }), 'approvalStepId')
    expect((await getPayment(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).status).toBe('CREATED')
  })

  it('needs the kind’s update permission: read-only and approve-only keys get 403, an admin may', async () => {
    const readOnly = await idle.newKey('read-only')
    const role = await idle.request({ method: 'POST', url: '/iam/v2/roles', body: { name: 'approver-only', permissions: ['credit_transfers:read', 'credit_transfers:approve'] } })
    expectStatus(role, 201)
    const user = await idle.request({ method: 'POST', url: '/iam/v2/users', body: { type: 'PROGRAMMATIC', name: 'Approver only', roleId: role.json().id } })
    const key = await idle.request({ method: 'POST', url: `/iam/v2/users/${user.json().id}/access-keys` })
    const approverOnly: Credentials = { organizationId: idle.owner.organizationId, userId: user.json().id, accessKey: key.json().accessKey, secret: key.json().secret, role: 'approver-only' }
    const admin = await idle.newKey('admin')
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expectError(await cancel(idle, 'CREDIT_TRANSFER', payment.id, { as: readOnly }), 403, 'forbidden')
    expectError(await cancel(idle, 'CREDIT_TRANSFER', payment.id, { as: approverOnly }), 403, 'forbidden')
    expectStatus(await cancel(idle, 'CREDIT_TRANSFER', payment.id, { as: admin }), 202)
    await expectCancelled(idle, admin, 'CREDIT_TRANSFER', payment)
  })

  it('answers 404 for another organization’s payment, an unknown one, and a payment of the other kind', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    const stranger = await idle.newOrganization('Stranger GmbH')
    expectError(await cancel(idle, 'CREDIT_TRANSFER', payment.id, { as: stranger }), 404, 'not_found')
    expectError(await cancel(idle, 'CREDIT_TRANSFER', MISSING_ID), 404, 'not_found')
    expectError(await cancel(idle, 'DIRECT_DEBIT', payment.id), 404, 'not_found')
    expect((await getPayment(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).status).toBe('CREATED')
  })
})
