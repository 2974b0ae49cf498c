import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CHAINS, createRole, member, type Member } from '../iam/iam-helpers.js'
import { BATCH_DECISIONS, createBatch, paymentsOf, transfers, type BatchJson } from './batch-helpers.js'
import { bankToday, CREDIT_TRANSFERS, eventsOf, settled, setup, type Setup } from './lifecycle-helpers.js'
import { expectError } from './payments-helpers.js'

/**
 * POST /payments/v2/credit-transfer-batches/{id}:approve and :reject (issue 13): a batch of treatment BATCH is
 * approved once, by the rules of payment approval, and its payments follow — to the bank with the payment worker;
 * a rejection rejects them all. Both backends.
 */

let t: TestApp
let s: Setup
let today: string
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: 100 })
  s = await setup(t)
  today = await bankToday(t, t.owner)
})
afterAll(() => t?.close())

const approve = (batch: Pick<BatchJson, 'id'>, stepId: string, as?: Credentials, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: `${BATCH_DECISIONS}/${batch.id}:approve`, body: { approvalStepId: stepId }, headers, as })
const reject = (batch: Pick<BatchJson, 'id'>, body: Record<string, unknown> = {}, as?: Credentials) =>
  t.request({ method: 'POST', url: `${BATCH_DECISIONS}/${batch.id}:reject`, body, as })

function batchOf(count: number, as?: Credentials, setupOf: Setup = s): Promise<BatchJson> {
  return createBatch(t, { treatment: 'BATCH', payments: transfers(setupOf.eurAccountIds[0]!, setupOf.supplierAccountId, count, { date: today }) }, as)
}

describe("the Owner's step (no approval chain)", () => {
  it('approves every payment of the batch at once, and they reach the bank with the payment worker', async () => {
    const batch = await batchOf(3)
    const [step] = batch.approvalSteps
    // A payment of the batch is approved with it only.
    const [one] = await paymentsOf(t, batch.id)
    expect(expectError(await t.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${one!.id}:reject`, body: {} }), 409, 'conflict').message).toContain(batch.id)

    const approved = await approve(batch, step!.id, undefined, { 'if-match': batch.etag })
    expect(approved.statusCode, approved.body).toBe(202)
    expect(approved.json()).toMatchObject({ version: 2, etag: 'version:2', approvalSteps: [{ id: step!.id, status: 'APPROVED', approver: { id: t.owner.userId } }] })
    for (const payment of await paymentsOf(t, batch.id)) {
      expect(['APPROVED', 'PENDING_SUBMISSION', 'SENT', 'ACCEPTED', 'PENDING_AT_BANK', 'EXECUTED', 'RECONCILED']).toContain(payment.status)
      const events = await eventsOf(t, t.owner, 'CREDIT_TRANSFER', payment.id)
      expect(events.slice(0, 2).map((event) => [event.name, event.originator])).toEqual([['CREATED', t.owner.userId], ['FULLY_APPROVED', t.owner.userId]])
    }
    for (const payment of await paymentsOf(t, batch.id)) expect((await settled(t, t.owner, 'CREDIT_TRANSFER', payment.id, ['RECONCILED'])).status).toBe('RECONCILED')

    expectError(await approve(batch, step!.id), 409, 'conflict')
    expectError(await reject(batch), 409, 'conflict')
    const events = (await t.request({ method: 'GET', url: `/iam/v2beta/audit-log-entries?resourceId=${batch.id}` })).json<{ items: Array<{ action: string }> }>()
    expect(events.items.map((entry) => entry.action)).toEqual(['credit_transfer_batches.approve'])
  }, 60_000)

  it('rejects every payment of the batch with the reason', async () => {
    const batch = await batchOf(2)
    const rejected = await reject(batch, { reason: 'Wrong payroll month' })
    expect(rejected.statusCode, rejected.body).toBe(202)
    expect(rejected.json()).toMatchObject({ version: 2, approvalSteps: [{ status: 'REJECTED' }] })
    for (const payment of await paymentsOf(t, batch.id)) {
      expect(payment).toMatchObject({ status: 'REJECTED', statusReason: { code: 'CUST', message: 'Wrong payroll month' } })
    }
    expectError(await approve(batch, batch.approvalSteps[0]!.id), 409, 'conflict')
  })

  it('checks If-Match when sent, and the step', async () => {
    const batch = await batchOf(1)
    expectError(await approve(batch, batch.approvalSteps[0]!.id, undefined, { 'if-match': 'version:7' }), 412, 'precondition_failed')
    const unknown = expectError(await approve(batch, '01900000-0000-7000-8000-000000000000'), 400, 'invalid_request')
    expect(unknown.details).toEqual([expect.objectContaining({ field: 'approvalStepId' })])
    for (const payment of await paymentsOf(t, batch.id)) expect(payment.status).toBe('CREATED')
  })

  it('refuses deciding a batch of treatment INDIVIDUAL_PAYMENTS (409): its payments are approved one by one', async () => {
    const batch = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: transfers(s.eurAccountIds[0]!, s.supplierAccountId, 1, { date: today }) })
    expect(expectError(await reject(batch), 409, 'conflict').message).toContain('treatment BATCH')
  })
})

describe('approval chains on the batch', () => {
  let owner: Credentials
  let org: Setup
  let clerk: Member
  let checkerA: Member
  let checkerB: Member
  beforeAll(async () => {
    owner = await t.newOrganization('Batch approvals GmbH')
    org = await setup(t, owner)
    const checker = (await createRole(t, 'batch-checker', ['credit_transfers:read', 'credit_transfers:create', 'credit_transfers:update'], owner)).id
    const maker = (await createRole(t, 'batch-maker', ['credit_transfers:read', 'credit_transfers:create'], owner)).id
    clerk = await member(t, maker, 'Clerk', owner)
    checkerA = await member(t, checker, 'Checker A', owner)
    checkerB = await member(t, checker, 'Checker B', owner)
    // Four eyes on the total of 100.00 EUR and more; the payments alone stay below it.
    const chain = await t.request({
      method: 'POST',
      url: CHAINS,
      body: { name: 'Large batches', trigger: { currency: 'EUR', amountAtLeast: { currency: 'EUR', value: 100_00 } }, steps: [{ requiredRoleIds: [checker] }, { requiredRoleIds: [checker] }] },
      as: owner,
    })
    expect(chain.statusCode, chain.body).toBe(201)
  })

  it("plans the chain's steps on the total, and refuses the creator, and one user twice (four eyes)", async () => {
    const batch = await createBatch(t, { treatment: 'BATCH', payments: transfers(org.eurAccountIds[0]!, org.supplierAccountId, 10, { date: today }) }, checkerA)
    expect(batch.amount!.value).toBeGreaterThanOrEqual(100_00)
    expect(batch.approvalSteps.map((step) => step.status)).toEqual(['PENDING', 'PENDING'])
    const [first, second] = batch.approvalSteps
    expect(expectError(await approve(batch, first!.id, checkerA), 403, 'forbidden').message).toContain('creator')
    expectError(await approve(batch, first!.id, clerk), 403, 'forbidden')

    const once = await approve(batch, first!.id, checkerB)
    expect(once.statusCode, once.body).toBe(202)
    expect(once.json().approvalSteps.map((step: { status: string }) => step.status)).toEqual(['APPROVED', 'PENDING'])
    for (const payment of await paymentsOf(t, batch.id, owner)) expect(payment.status).toBe('CREATED')
    expect(expectError(await approve(batch, second!.id, checkerB), 403, 'forbidden').message).toContain('two steps of the same approval chain')
  })

  it('the small batch below the chain gets the Owner step instead', async () => {
    const batch = await createBatch(t, { treatment: 'BATCH', payments: transfers(org.eurAccountIds[0]!, org.supplierAccountId, 2, { date: today }) }, clerk)
    expect(batch.approvalSteps).toHaveLength(1)
    expect(batch.approvalSteps[0]!.approvalChainId).not.toBe(undefined)
    expectError(await approve(batch, batch.approvalSteps[0]!.id, checkerA), 403, 'forbidden')
    expect((await approve(batch, batch.approvalSteps[0]!.id, owner)).statusCode).toBe(202)
  })
})
