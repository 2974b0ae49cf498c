import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { BATCHES, createBatch, paymentsOf, postBatch, resultsOf, transfers, type BatchJson } from './batch-helpers.js'
import { bankToday, CREDIT_TRANSFERS, MISSING_ID, setup, transferBody, type Setup } from './lifecycle-helpers.js'
import { expectError, expectInvalidField } from './payments-helpers.js'

/**
 * POST /payments/v2beta/credit-transfer-batches with a JSON body, GET list, GET, GET …/results (issue 13): each
 * record validated as POST /payments/v2/credit-transfers validates one, both treatments, skipValidationErrors, the
 * result summary and per-record results, tenancy, permissions and the Idempotency-Key. Both backends.
 */

let t: TestApp
let s: Setup
let today: string
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  s = await setup(t)
  today = await bankToday(t, t.owner)
})
afterAll(() => t?.close())

const valid = (count: number, overrides: Record<string, unknown> = {}) => transfers(s.eurAccountIds[0]!, s.supplierAccountId, count, { date: today, ...overrides })
/** Two records the bank's rules refuse, and one the schema refuses. */
const invalid = () => [
  transferBody(s.eurAccountIds[0]!, s.supplierAccountId, { date: '2020-01-01' }),
  transferBody(s.eurAccountIds[0]!, s.supplierAccountId, { date: today, amount: { currency: 'SEK', value: 100 } }),
  { ...transferBody(s.eurAccountIds[0]!, s.supplierAccountId, { date: today }), colour: 'red' },
]

describe('treatment INDIVIDUAL_PAYMENTS', () => {
  it('makes each valid record a payment with its own approval steps, and fails the invalid ones with their errors', async () => {
    const payments = [...valid(2), ...invalid()]
    const batch = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments, externalId: 'individual-1', metadata: { run: '7' } })
    expect(batch).toMatchObject({
      treatment: 'INDIVIDUAL_PAYMENTS',
      status: 'COMPLETED',
      externalId: 'individual-1',
      version: 1,
      etag: 'version:1',
      errors: [],
      approvalSteps: [],
      resultSummary: { total: 5, succeeded: 2, failed: 3, skipped: 0 },
      input: { type: 'REQUEST_BODY' },
      inputDetails: { skipValidationErrors: false },
      metadata: { run: '7' },
      creatorUserId: t.owner.userId,
    })
    expect(batch.inputContent).toMatchObject({ contentType: 'application/vnd.atlar.payments.v2.credit-transfer.batch+json', recordCount: 5 })
    expect(batch.inputContent.checksum).toMatch(/^[0-9a-f]{64}$/)

    const results = await resultsOf(t, batch.id)
    expect(results.map((result) => result.recordIndex)).toEqual([0, 1, 2, 3, 4])
    expect(results.slice(0, 2).every((result) => result.paymentId !== undefined && result.errors.length === 0 && !result.skipped)).toBe(true)
    // The errors the same request alone would answer with: the field at fault, its code.
    expect(results[2]).toMatchObject({ skipped: false, errors: [expect.objectContaining({ field: 'date', code: 'invalid_value' })] })
    expect(results[3]!.errors).toEqual([expect.objectContaining({ field: 'amount.currency' })])
    expect(results[4]!.errors).toEqual([{ code: 'unknown_field', field: 'colour', error: 'is not a known field' }])
    expect(results[2]!.paymentId).toBeUndefined()

    const made = await paymentsOf(t, batch.id)
    expect(made.map((payment) => payment.id).sort()).toEqual(results.slice(0, 2).map((result) => result.paymentId).sort())
    for (const payment of made) {
      // Approved on its own: the Owner's step, as if created alone.
      expect(payment).toMatchObject({ status: 'CREATED', batch: { id: batch.id, treatment: 'INDIVIDUAL_PAYMENTS' } })
      expect(payment.approvalSteps).toHaveLength(1)
    }
    const one = await t.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${made[0]!.id}:approve`, body: { approvalStepId: made[0]!.approvalSteps[0]!.id } })
    expect(one.json()).toMatchObject({ status: 'APPROVED' })
    const events = (await t.request({ method: 'GET', url: `${CREDIT_TRANSFERS}/${made[1]!.id}/events` })).json<{ items: Array<{ name: string }> }>()
    expect(events.items.map((event) => event.name)).toEqual(['CREATED'])
  })

  it('skips the invalid records instead of failing them with skipValidationErrors', async () => {
    const batch = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: [...invalid(), ...valid(1)], skipValidationErrors: true })
    expect(batch.resultSummary).toEqual({ total: 4, succeeded: 1, failed: 0, skipped: 3 })
    const skipped = await resultsOf(t, batch.id, 'skipped=true')
    expect(skipped.map((result) => result.recordIndex)).toEqual([0, 1, 2])
    expect(skipped.every((result) => result.errors.length > 0)).toBe(true)
  })
})

describe('treatment BATCH', () => {
  it("creates the payments without steps of their own, the batch's steps planned on its total", async () => {
    const batch = await createBatch(t, { treatment: 'BATCH', payments: valid(3) })
    expect(batch).toMatchObject({ resultSummary: { total: 3, succeeded: 3, failed: 0, skipped: 0 }, amount: { currency: 'EUR', value: 10_01 + 10_02 + 10_03 }, errors: [] })
    expect(batch.approvalSteps).toEqual([expect.objectContaining({ status: 'PENDING', autoApproved: false })])
    const made = await paymentsOf(t, batch.id)
    expect(made).toHaveLength(3)
    for (const payment of made) expect(payment).toMatchObject({ status: 'CREATED', approvalSteps: [], batch: { id: batch.id, treatment: 'BATCH' } })
  })

  it('creates nothing when a record is invalid, naming why; the valid records are skipped, the invalid failed', async () => {
    const before = (await t.request({ method: 'GET', url: `${CREDIT_TRANSFERS}?limit=500` })).json<{ items: unknown[] }>().items.length
    const batch = await createBatch(t, { treatment: 'BATCH', payments: [...valid(2), invalid()[0]] })
    expect(batch).toMatchObject({ status: 'COMPLETED', approvalSteps: [], resultSummary: { total: 3, succeeded: 0, failed: 1, skipped: 2 } })
    expect(batch.amount).toBeUndefined()
    expect(batch.errors).toEqual([expect.objectContaining({ code: 'invalid_records', field: 'payments' })])
    expect(await paymentsOf(t, batch.id)).toEqual([])
    expect((await t.request({ method: 'GET', url: `${CREDIT_TRANSFERS}?limit=500` })).json<{ items: unknown[] }>().items).toHaveLength(before)
    const results = await resultsOf(t, batch.id)
    expect(results.map((result) => [result.skipped, result.errors.length > 0])).toEqual([[true, false], [true, false], [false, true]])
    expect((await resultsOf(t, batch.id, 'errors=true')).map((result) => result.recordIndex)).toEqual([2])
    expect((await resultsOf(t, batch.id, 'errors=false&skipped=true')).map((result) => result.recordIndex)).toEqual([0, 1])
  })

  it('creates the valid records and skips the invalid ones with skipValidationErrors', async () => {
    const batch = await createBatch(t, { treatment: 'BATCH', payments: [invalid()[1], ...valid(2)], skipValidationErrors: true })
    expect(batch).toMatchObject({ resultSummary: { total: 3, succeeded: 2, failed: 0, skipped: 1 }, amount: { value: 10_01 + 10_02 }, errors: [] })
    expect(batch.approvalSteps).toHaveLength(1)
    expect(await paymentsOf(t, batch.id)).toHaveLength(2)
  })

  it('refuses payments from several source accounts (one approval is one debit): 400 and nothing created', async () => {
    const mixed = [...valid(1), ...transfers(s.eurAccountIds[1]!, s.supplierAccountId, 1, { date: today })]
    expectInvalidField(await postBatch(t, { treatment: 'BATCH', payments: mixed }), 'payments')
    const list = (await t.request({ method: 'GET', url: `${BATCHES}?limit=500` })).json<{ items: BatchJson[] }>()
    expect(list.items.every((item) => item.resultSummary.total !== 2 || item.treatment !== 'BATCH' || item.resultSummary.succeeded !== 2)).toBe(true)
  })

  it('refuses a second externalId of a record already used, as that record\'s error', async () => {
    const first = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: valid(1, { externalId: 'batch-pay-1' }) })
    expect(first.resultSummary.succeeded).toBe(1)
    const again = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: [...valid(1, { externalId: 'batch-pay-1' }), ...valid(2, { externalId: 'batch-pay-2' })] })
    expect(again.resultSummary).toEqual({ total: 3, succeeded: 1, failed: 2, skipped: 0 })
    const results = await resultsOf(t, again.id)
    expect(results.map((result) => result.errors[0]?.code)).toEqual(['external_id_taken', undefined, 'external_id_taken'])
  })
})

describe('the request as a whole', () => {
  it.each([
    [{ treatment: 'BATCH', payments: [] }, 'payments'],
    [{ treatment: 'SOMETIMES', payments: [{}] }, 'treatment'],
    [{ payments: [{}] }, 'treatment'],
    [{ treatment: 'BATCH', payments: [{}], colour: 'red' }, 'colour'],
    [{ treatment: 'BATCH', payments: 'all of them' }, 'payments'],
  ])('refuses %j with a 400 naming the field', async (body, field) => {
    expectInvalidField(await postBatch(t, body), field)
  })

  it('refuses a request with no body at all (no content type either) with a 400 naming body, not a 500', async () => {
    expectInvalidField(await t.request({ method: 'POST', url: BATCHES }), 'body')
  })

  it('refuses more than 1,000 records with a 413 saying so', async () => {
    const body = expectError(await postBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: Array.from({ length: 1_001 }, () => ({})) }), 413, 'payload_too_large')
    expect(body.message).toContain('at most 1,000')
  })

  it('refuses a batch externalId used before (409)', async () => {
    await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: valid(1), externalId: 'batch-twice' })
    expectError(await postBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: valid(1), externalId: 'batch-twice' }), 409, 'external_id_taken')
  })

  it('creates one batch for one Idempotency-Key, and answers the repeat as the first time', async () => {
    const headers = { 'idempotency-key': 'batch-key-1' }
    const body = { treatment: 'BATCH', payments: valid(2) }
    const first = await postBatch(t, body, undefined, headers)
    expect(first.statusCode).toBe(201)
    const repeat = await postBatch(t, body, undefined, headers)
    expect(repeat.statusCode).toBe(201)
    expect(repeat.headers['idempotent-replayed']).toBe('true')
    expect(repeat.body).toBe(first.body)
    expect(await paymentsOf(t, first.json<BatchJson>().id)).toHaveLength(2)
    expectError(await postBatch(t, { ...body, payments: valid(3) }, undefined, headers), 422, 'idempotency_key_reused')
  })
})

describe('reads', () => {
  it('gets a batch by id and by external:{externalId}, lists newest first, pages the list', async () => {
    const older = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: valid(1), externalId: 'read-older' })
    const newer = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: valid(1) })
    expect((await t.request({ method: 'GET', url: `${BATCHES}/${older.id}` })).json()).toEqual(older)
    expect((await t.request({ method: 'GET', url: `${BATCHES}/external:read-older` })).json()).toEqual(older)
    const first = (await t.request({ method: 'GET', url: `${BATCHES}?limit=1` })).json<{ items: BatchJson[]; nextToken: string }>()
    expect(first.items.map((item) => item.id)).toEqual([newer.id])
    const second = (await t.request({ method: 'GET', url: `${BATCHES}?limit=1&token=${first.nextToken}` })).json<{ items: BatchJson[] }>()
    expect(second.items.map((item) => item.id)).toEqual([older.id])
    expectError(await t.request({ method: 'GET', url: `${BATCHES}/${MISSING_ID}` }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${BATCHES}/${MISSING_ID}/results` }), 404, 'not_found')
  })

  it("refuses a results token of another batch or other filters", async () => {
    const batch = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: valid(3) })
    const other = await createBatch(t, { treatment: 'INDIVIDUAL_PAYMENTS', payments: valid(3) })
    const page = (await t.request({ method: 'GET', url: `${BATCHES}/${batch.id}/results?limit=1` })).json<{ nextToken: string }>()
    expectError(await t.request({ method: 'GET', url: `${BATCHES}/${other.id}/results?limit=1&token=${page.nextToken}` }), 400, 'invalid_token')
    expectError(await t.request({ method: 'GET', url: `${BATCHES}/${batch.id}/results?limit=1&errors=false&token=${page.nextToken}` }), 400, 'invalid_token')
  })
})

describe('tenancy and permissions', () => {
  let other: Credentials
  let theirs: BatchJson
  beforeAll(async () => {
    other = await t.newOrganization('Batch tenancy')
    const theirSetup = await setup(t, other)
    theirs = await createBatch(t, { treatment: 'BATCH', payments: transfers(theirSetup.eurAccountIds[0]!, theirSetup.supplierAccountId, 1, { date: today }), externalId: 'theirs' }, other)
  })

  it("answers 404 for another organization's batch, its results and its decisions, and lists only the organization's own", async () => {
    expectError(await t.request({ method: 'GET', url: `${BATCHES}/${theirs.id}` }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${BATCHES}/external:theirs` }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${BATCHES}/${theirs.id}/results` }), 404, 'not_found')
    const step = { approvalStepId: theirs.approvalSteps[0]!.id }
    expectError(await t.request({ method: 'POST', url: `/payments/v2/credit-transfer-batches/${theirs.id}:approve`, body: step }), 404, 'not_found')
    expectError(await t.request({ method: 'POST', url: `/payments/v2/credit-transfer-batches/${theirs.id}:reject`, body: {} }), 404, 'not_found')
    const mine = (await t.request({ method: 'GET', url: `${BATCHES}?limit=500` })).json<{ items: BatchJson[] }>()
    expect(mine.items.map((item) => item.id)).not.toContain(theirs.id)
    expect((await t.request({ method: 'GET', url: `${BATCHES}/${theirs.id}`, as: other })).statusCode).toBe(200)
  })

  it('needs credit_transfers:create to create and :update to decide; a read-only key reads', async () => {
    const readOnly = await t.newKey('read-only')
    const batch = await createBatch(t, { treatment: 'BATCH', payments: valid(1) })
    const refused = expectError(await postBatch(t, { treatment: 'BATCH', payments: valid(1) }, readOnly), 403, 'forbidden')
    expect(refused.message).toContain('credit_transfers:create')
    const step = { approvalStepId: batch.approvalSteps[0]!.id }
    expect(expectError(await t.request({ method: 'POST', url: `/payments/v2/credit-transfer-batches/${batch.id}:approve`, body: step, as: readOnly }), 403, 'forbidden').message).toContain('credit_transfers:update')
    expectError(await t.request({ method: 'POST', url: `/payments/v2/credit-transfer-batches/${batch.id}:reject`, body: {}, as: readOnly }), 403, 'forbidden')
    expect((await t.request({ method: 'GET', url: `${BATCHES}/${batch.id}/results`, as: readOnly })).statusCode).toBe(200)
    expectError(await t.request({ method: 'GET', url: BATCHES, as: null }), 401, 'unauthorized')
  })
})
