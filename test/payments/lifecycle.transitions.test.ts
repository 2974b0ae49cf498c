import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError, expectInvalidField, patch } from './payments-helpers.js'
import {
  addDays,
  approve,
  approveAsOwner,
  createDirectDebit,
  createMandate,
  createTransfer,
  CREDIT_TRANSFERS,
  DIRECT_DEBITS,
  eventsOf,
  getPayment,
  MISSING_ID,
  settled,
  setup,
  todayUtc,
  transferBody,
  directDebitBody,
  type Setup,
} from './lifecycle-helpers.js'

/**
 * Moves the lifecycle forbids, over HTTP: each is a 409 (or a 400 for a step that is not the
 * payment's) with a message saying why, and changes nothing. `idle` runs no payment worker, so an
 * approved payment stays APPROVED; `live` submits approved payments to the sandbox bank at once.
 */
let idle: TestApp
let live: TestApp
let idleOrg: Setup
let liveOrg: Setup
beforeAll(async () => {
  ;[idle, live] = await Promise.all([startTestApp({ paymentWorkerIntervalMilliseconds: false }), startTestApp()])
  ;[idleOrg, liveOrg] = await Promise.all([setup(idle), setup(live)])
})
afterAll(async () => {
  await Promise.all([idle?.close(), live?.close()])
})

function reject(t: TestApp, url: string, id: string) {
  return t.request({ method: 'POST', url: `${url}/${id}:reject`, body: { reason: 'Not needed' } })
}

describe('approving', () => {
  it('refuses to approve a REJECTED payment: 409 naming its status', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expect((await reject(idle, CREDIT_TRANSFERS, payment.id)).statusCode).toBe(202)
    const refused = expectError(await approve(idle, idle.owner, 'CREDIT_TRANSFER', payment, payment.approvalSteps[0]!.id), 409, 'conflict')
    expect(refused.message).toBe('The payment is REJECTED; only a CREATED payment awaits approval')
    expect(await getPayment(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).toMatchObject({ status: 'REJECTED', version: 2 })
    expect((await eventsOf(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).map((event) => event.name)).toEqual(['CREATED', 'REJECTED'])
  })

  it('refuses to approve a RECONCILED payment', async () => {
    const payment = await createTransfer(live, live.owner, transferBody(liveOrg.eurAccountIds[0]!, liveOrg.supplierAccountId))
    await approveAsOwner(live, live.owner, 'CREDIT_TRANSFER', payment)
    const done = await settled(live, live.owner, 'CREDIT_TRANSFER', payment.id)
    expect(done.status).toBe('RECONCILED')
    const refused = expectError(await approve(live, live.owner, 'CREDIT_TRANSFER', payment, payment.approvalSteps[0]!.id), 409, 'conflict')
    expect(refused.message).toBe('The payment is RECONCILED; only a CREATED payment awaits approval')
    expect((await getPayment(live, live.owner, 'CREDIT_TRANSFER', payment.id)).version).toBe(done.version)
  })

  it('refuses a step that is not the payment’s with a 400 naming approvalStepId', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    const other = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expectInvalidField(await approve(idle, idle.owner, 'CREDIT_TRANSFER', payment, MISSING_ID), 'approvalStepId')
    expectInvalidField(await approve(idle, idle.owner, 'CREDIT_TRANSFER', payment, other.approvalSteps[0]!.id), 'approvalStepId')
    expectInvalidField(await idle.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${payment.id}:approve`, body: { approvalStepId: 'step-1' } }), 'approvalStepId')
    expect(await getPayment(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).toMatchObject({ status: 'CREATED', version: 1 })
  })

  it('refuses to approve a payment of the other kind through the wrong resource: 404', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expectError(await idle.request({ method: 'POST', url: `${DIRECT_DEBITS}/${payment.id}:approve`, body: { approvalStepId: payment.approvalSteps[0]!.id } }), 404, 'not_found')
  })
})

describe('rejecting', () => {
  it('refuses to reject an APPROVED payment: 409, and it stays APPROVED', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    await approveAsOwner(idle, idle.owner, 'CREDIT_TRANSFER', payment)
    const refused = expectError(await reject(idle, CREDIT_TRANSFERS, payment.id), 409, 'conflict')
    expect(refused.message).toBe('The payment is APPROVED; only a CREATED payment can be rejected')
    expect(await getPayment(idle, idle.owner, 'CREDIT_TRANSFER', payment.id)).toMatchObject({ status: 'APPROVED', version: 2 })
  })

  it('refuses to reject a REJECTED payment, or an executed direct debit', async () => {
    const payment = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    expect((await reject(idle, CREDIT_TRANSFERS, payment.id)).statusCode).toBe(202)
    expectError(await reject(idle, CREDIT_TRANSFERS, payment.id), 409, 'conflict')

    await createMandate(live, live.owner, liveOrg.supplierAccountId, 'MANDATE-TRANSITIONS')
    const debit = await createDirectDebit(live, live.owner, directDebitBody(liveOrg.supplierAccountId, liveOrg.eurAccountIds[0]!))
    await approveAsOwner(live, live.owner, 'DIRECT_DEBIT', debit)
    expect((await settled(live, live.owner, 'DIRECT_DEBIT', debit.id)).status).toBe('RECONCILED')
    expect(expectError(await reject(live, DIRECT_DEBITS, debit.id), 409, 'conflict').message).toBe(
      'The payment is RECONCILED; only a CREATED payment can be rejected',
    )
  })
})

describe('changing the date', () => {
  const later = addDays(todayUtc(), 5)

  it('allows replace /date while CREATED and APPROVED, then refuses it once submitted: 409', async () => {
    const created = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    const patched = await patch(idle, `${CREDIT_TRANSFERS}/${created.id}`, created.etag, [{ op: 'replace', path: '/date', value: later }])
    expect(patched.statusCode, patched.body).toBe(202)
    const approved = await approveAsOwner(idle, idle.owner, 'CREDIT_TRANSFER', patched.json())
    const again = await patch(idle, `${CREDIT_TRANSFERS}/${created.id}`, approved.etag, [{ op: 'replace', path: '/date', value: todayUtc() }])
    expect(again.statusCode, again.body).toBe(202)
    expect(again.json()).toMatchObject({ status: 'APPROVED', date: todayUtc() })

    const payment = await createTransfer(live, live.owner, transferBody(liveOrg.eurAccountIds[0]!, liveOrg.supplierAccountId, { date: later }))
    await approveAsOwner(live, live.owner, 'CREDIT_TRANSFER', payment)
    const waiting = await settled(live, live.owner, 'CREDIT_TRANSFER', payment.id, ['PENDING_AT_BANK', 'FAILED'])
    expect(waiting.status).toBe('PENDING_AT_BANK')
    const refused = expectError(await patch(live, `${CREDIT_TRANSFERS}/${payment.id}`, waiting.etag, [{ op: 'replace', path: '/date', value: addDays(later, 1) }]), 409, 'conflict')
    expect(refused.message).toBe('The date cannot change once the payment is PENDING_AT_BANK')
    expect(await getPayment(live, live.owner, 'CREDIT_TRANSFER', payment.id)).toMatchObject({ date: later, version: waiting.version })
  })

  it('refuses a date change of a settled payment: 409', async () => {
    const payment = await createTransfer(live, live.owner, transferBody(liveOrg.eurAccountIds[0]!, liveOrg.supplierAccountId))
    await approveAsOwner(live, live.owner, 'CREDIT_TRANSFER', payment)
    const done = await settled(live, live.owner, 'CREDIT_TRANSFER', payment.id)
    expectError(await patch(live, `${CREDIT_TRANSFERS}/${payment.id}`, done.etag, [{ op: 'replace', path: '/date', value: later }]), 409, 'conflict')
  })
})
