import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { listAll } from './payments-helpers.js'
import { CREDIT_TRANSFERS, DIRECT_DEBITS, createMandate, directDebitBody, overSocket, setup, transferBody, type PaymentJson, type Setup } from './lifecycle-helpers.js'

/**
 * Creating a payment with an Idempotency-Key: a retry gets the first response, never a second
 * payment — also when the duplicates arrive at once over real sockets. The payment worker is off:
 * the created payments stay as they were answered.
 */
const PARALLEL = 8

let t: TestApp
let base: string
let org: Setup
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
  org = await setup(t, await t.newOrganization('Idempotent payments GmbH'))
})
afterAll(() => t.close())

async function count(url: string, as: Credentials): Promise<number> {
  return (await listAll<PaymentJson>(t, url, as)).length
}

describe('idempotent creation', () => {
  it('creates one credit transfer for one key; the retry is the identical response, marked replayed', async () => {
    const body = transferBody(org.eurAccountIds[0]!, org.supplierAccountId, { reference: 'Invoice retry 1' })
    const headers = { 'idempotency-key': 'ct-retry-1' }
    const first = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers, as: org.as })
    expect(first.statusCode, first.body).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const retry = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers, as: org.as })
    expect(retry.statusCode).toBe(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.body).toBe(first.body)
    expect(await count(CREDIT_TRANSFERS, org.as)).toBe(1)

    // The same key with another body is a client error, not a second payment.
    const changed = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: { ...body, reference: 'Invoice retry 2' }, headers, as: org.as })
    expect(changed.statusCode).toBe(422)
    expect(await count(CREDIT_TRANSFERS, org.as)).toBe(1)
  })

  it("answers a retry from its transaction's lookup of the key: the first answer, not the 409 a second create would meet", async () => {
    // The key of a create is looked up only in its transaction (route config idempotency 'transaction'): the retry's
    // work runs, finds the externalId taken, and rolls back; the stored 201 is the answer.
    const body = { ...transferBody(org.eurAccountIds[0]!, org.supplierAccountId, { reference: 'Invoice retry 3' }), externalId: 'retry-external-3' }
    const headers = { 'idempotency-key': 'ct-retry-3' }
    const first = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers, as: org.as })
    expect(first.statusCode, first.body).toBe(201)
    const retry = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers, as: org.as })
    expect([retry.statusCode, retry.headers['idempotent-replayed']], retry.body).toEqual([201, 'true'])
    expect(retry.body).toBe(first.body)
    // Under another key the same body is a second create: its 409, stored and replayed in turn.
    const other = { 'idempotency-key': 'ct-retry-3-other' }
    const taken = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers: other, as: org.as })
    expect(taken.json()).toMatchObject({ status: 409, code: 'external_id_taken' })
    const takenAgain = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers: other, as: org.as })
    expect([takenAgain.statusCode, takenAgain.headers['idempotent-replayed'], takenAgain.body]).toEqual([409, 'true', taken.body])
  })

  it('creates one direct debit for one key', async () => {
    await createMandate(t, org.as, org.supplierAccountId, 'MANDATE-IDEMPOTENT')
    const body = directDebitBody(org.supplierAccountId, org.eurAccountIds[0]!)
    const headers = { 'idempotency-key': 'dd-retry-1' }
    const first = await t.request({ method: 'POST', url: DIRECT_DEBITS, body, headers, as: org.as })
    const retry = await t.request({ method: 'POST', url: DIRECT_DEBITS, body, headers, as: org.as })
    expect([first.statusCode, retry.statusCode]).toEqual([201, 201])
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.body).toBe(first.body)
    expect(await count(DIRECT_DEBITS, org.as)).toBe(1)
  })

  it('creates exactly one credit transfer from parallel duplicates over real sockets', async () => {
    const before = await count(CREDIT_TRANSFERS, org.as)
    const body = transferBody(org.eurAccountIds[0]!, org.supplierAccountId, { reference: 'Invoice parallel' })
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () => overSocket(base, org.as, 'POST', CREDIT_TRANSFERS, body, { 'idempotency-key': 'ct-parallel-1' })),
    )
    const fresh = responses.filter((response) => response.status !== 425 && response.headers['idempotent-replayed'] === undefined)
    expect(fresh.map((response) => response.status)).toEqual([201])
    for (const response of responses) {
      if (response === fresh[0] || response.status === 425) continue
      expect(response).toMatchObject({ status: 201, headers: { 'idempotent-replayed': 'true' }, body: fresh[0]!.body })
    }
    expect(await count(CREDIT_TRANSFERS, org.as)).toBe(before + 1)
    const replay = await overSocket(base, org.as, 'POST', CREDIT_TRANSFERS, body, { 'idempotency-key': 'ct-parallel-1' })
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(JSON.parse(replay.body).id).toBe(JSON.parse(fresh[0]!.body).id)
  })

  it('runs parallel creates with different keys once each', async () => {
    const before = await count(CREDIT_TRANSFERS, org.as)
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, index) =>
        overSocket(base, org.as, 'POST', CREDIT_TRANSFERS, transferBody(org.eurAccountIds[0]!, org.supplierAccountId, { reference: `Invoice ${index}` }), {
          'idempotency-key': `ct-distinct-${index}`,
        }),
      ),
    )
    expect(responses.map((response) => response.status)).toEqual(Array(PARALLEL).fill(201))
    expect(new Set(responses.map((response) => JSON.parse(response.body).id)).size).toBe(PARALLEL)
    expect(await count(CREDIT_TRANSFERS, org.as)).toBe(before + PARALLEL)
  })
})
