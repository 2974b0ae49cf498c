import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { TestApp } from '../support/test-app.js'
import { transferBody, type PaymentJson } from './lifecycle-helpers.js'

/** Shared steps of the credit transfer batch tests. */

export const BATCHES = '/payments/v2beta/credit-transfer-batches'
/** reference §3.3: a batch is approved and rejected under v2. */
export const BATCH_DECISIONS = '/payments/v2/credit-transfer-batches'

export interface BatchJson {
  id: string
  treatment: string
  status: string
  etag: string
  version: number
  resultSummary: { total: number; succeeded: number; failed: number; skipped: number }
  errors: Array<{ code: string; field: string; error: string }>
  approvalSteps: Array<{ id: string; status: string; autoApproved: boolean; approvalChainId: string }>
  inputContent: { contentType: string; recordCount: number; size: number; checksum: string; filename?: string }
  amount?: { currency: string; value: number }
  [field: string]: unknown
}

export interface ResultJson {
  recordIndex: number
  paymentId?: string
  errors: Array<{ code: string; field: string; error: string }>
  skipped: boolean
}

export function postBatch(t: TestApp, body: unknown, as?: Credentials, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: BATCHES, body, headers, as })
}

/** POSTs a JSON batch and insists on 201. */
export async function createBatch(t: TestApp, body: Record<string, unknown>, as?: Credentials): Promise<BatchJson> {
  const response = await postBatch(t, body, as)
  expect(response.statusCode, response.body).toBe(201)
  return response.json<BatchJson>()
}

/** `count` valid credit transfers from `sourceId` to `destinationId`, amounts 10.01, 10.02, … */
export function transfers(sourceId: string, destinationId: string, count: number, overrides: Record<string, unknown> = {}) {
  return Array.from({ length: count }, (_, index) =>
    transferBody(sourceId, destinationId, { amount: { currency: 'EUR', value: 10_01 + index }, reference: `Batch payment ${index}`, ...overrides }),
  )
}

/** A multipart/form-data body (RFC 7578) of `fields` and, when given, the CSV `file`. */
export function form(fields: Record<string, string>, file?: { content: string; filename?: string }, boundary = 'kassa-test-boundary'): { body: string; headers: Record<string, string> } {
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  if (file) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename ?? 'batch.csv'}"\r\nContent-Type: text/csv\r\n\r\n${file.content}\r\n`)
  }
  return { body: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** Every result of the batch, following nextToken, with `query` (e.g. `errors=true`). */
export async function resultsOf(t: TestApp, batchId: string, query = '', as?: Credentials): Promise<ResultJson[]> {
  const items: ResultJson[] = []
  let token = ''
  do {
    const response = await t.request({ method: 'GET', url: `${BATCHES}/${batchId}/results?limit=2&${query}&token=${encodeURIComponent(token)}`.replace('?&', '?').replace(/&&/g, '&'), as })
    expect(response.statusCode, response.body).toBe(200)
    const page = response.json<{ items: ResultJson[]; nextToken: string }>()
    items.push(...page.items)
    token = page.nextToken
  } while (token !== '')
  return items
}

/** The credit transfers of a batch (GET /payments/v2/credit-transfers?batchId=). */
export async function paymentsOf(t: TestApp, batchId: string, as?: Credentials): Promise<PaymentJson[]> {
  const response = await t.request({ method: 'GET', url: `/payments/v2/credit-transfers?batchId=${batchId}&limit=500`, as })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ items: PaymentJson[] }>().items
}
