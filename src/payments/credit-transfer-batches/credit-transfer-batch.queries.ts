import type { Database } from '../../db/database.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { groupBy } from '../../shared/group-by.js'
import { findBatch, serializeBatch, toCreditTransferBatch } from './credit-transfer-batch.js'
import { creditTransferBatchRepo } from './credit-transfer-batch.repo.js'
import type { BatchError, BatchResult, BatchResultsQuery, CreditTransferBatch } from './credit-transfer-batch.schemas.js'

/** Reads of batches: get, list (newest first), and a batch's results (in record order). */
export function createCreditTransferBatchQueries(database: Database) {
  return {
    /** @throws ApiError not_found (404). */
    async get(actor: Actor, ref: ResourceRef): Promise<CreditTransferBatch> {
      return serializeBatch(database.db, await findBatch(database.db, actor.organizationId, ref))
    },

    /** @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<CreditTransferBatch>> {
      const page = pageRequest(query, 'credit_transfer_batches', {}, ['text'])
      const rows = await creditTransferBatchRepo.list(database.db, actor.organizationId, page)
      const steps = groupBy(await creditTransferBatchRepo.steps(database.db, rows.slice(0, page.limit).map((row) => row.id)), (step) => step.batch_id)
      return pageOf(rows, page, (row) => [row.id], (row) => toCreditTransferBatch(row, steps.get(row.id) ?? []))
    },

    /** @throws ApiError not_found (404), invalid_token (400: also a token of another batch's results or other filters). */
    async results(actor: Actor, ref: ResourceRef, query: BatchResultsQuery): Promise<ListEnvelopeOf<BatchResult>> {
      const batch = await findBatch(database.db, actor.organizationId, ref)
      const { limit, token, ...filters } = query
      const page = pageRequest({ limit, token }, `credit_transfer_batch_results ${batch.id}`, filters, ['integer'])
      const rows = await creditTransferBatchRepo.results(database.db, batch.id, filters, page)
      return pageOf(rows, page, (row) => [row.record_index], (row) => ({
        recordIndex: row.record_index,
        ...(row.payment_id !== null ? { paymentId: row.payment_id } : {}),
        errors: JSON.parse(row.errors) as BatchError[],
        skipped: row.skipped === 1,
      }))
    },
  }
}
