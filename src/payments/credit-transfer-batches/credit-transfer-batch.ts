import type { Executor } from '../../db/database.js'
import type { CreditTransferBatchesTable } from '../../db/schema.js'
import { recordEvent } from '../../events/index.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import { requireLive } from '../../shared/lookup.js'
import { toAmount } from '../../shared/money.js'
import { toApprovalStep } from '../lifecycle/payment.repo.js'
import { creditTransferBatchRepo, type BatchStepRow } from './credit-transfer-batch.repo.js'
import { BATCH_CONTENT_TYPES, type BatchError, type BatchInputContent, type BatchResultSummary, type CreditTransferBatch } from './credit-transfer-batch.schemas.js'

/** The event resource name of batches. Not a webhook resource (webhooks/webhook.schemas.ts): their events are kept, not delivered. */
export const BATCH_ENTITY_TYPE = 'credit_transfer_batches'

export function toCreditTransferBatch(row: CreditTransferBatchesTable, steps: BatchStepRow[]): CreditTransferBatch {
  const inputContent = JSON.parse(row.input_content) as BatchInputContent
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    treatment: row.treatment,
    status: row.status as CreditTransferBatch['status'],
    input: { type: inputContent.contentType === BATCH_CONTENT_TYPES.csv ? 'FILE' : 'REQUEST_BODY' },
    inputContent,
    inputDetails: { skipValidationErrors: row.skip_validation_errors === 1 },
    resultSummary: JSON.parse(row.result_summary) as BatchResultSummary,
    errors: JSON.parse(row.errors) as BatchError[],
    ...(row.currency !== null && row.total !== null ? { amount: toAmount(Number(row.total), row.currency) } : {}),
    approvalSteps: steps.map((step) => toApprovalStep(step, row.organization_id)),
    creatorUserId: row.creator_user_id,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

/** @throws ApiError not_found (404) — also for another organization's batch. */
export async function findBatch(db: Executor, organizationId: string, ref: ResourceRef): Promise<CreditTransferBatchesTable> {
  return requireLive(await creditTransferBatchRepo.find(db, organizationId, ref), 'credit transfer batch', ref)
}

export async function serializeBatch(db: Executor, row: CreditTransferBatchesTable): Promise<CreditTransferBatch> {
  return toCreditTransferBatch(row, await creditTransferBatchRepo.steps(db, [row.id]))
}

/** The batch as it is now, with the event of the change that made it so, in the caller's transaction. */
export async function recordBatchEvent(
  trx: Executor,
  row: CreditTransferBatchesTable,
  event: { type: 'CREATED' | 'UPDATED'; name: string; originator: string; message?: string },
): Promise<CreditTransferBatch> {
  const batch = await serializeBatch(trx, row)
  await recordEvent(trx, { organizationId: row.organization_id, entityType: BATCH_ENTITY_TYPE, entityId: row.id, ...event, entity: batch })
  return batch
}
