import type { Executor } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { CreditTransferBatchApprovalStepsTable, CreditTransferBatchesTable, CreditTransferBatchResultsTable } from '../../db/schema.js'
import { SYSTEM_ORIGINATOR } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import type { Actor } from '../../iam/actor.js'
import { ownerRoleId } from '../../iam/roles/owner-role.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { newId } from '../../shared/ids.js'
import { approvalChainRepo } from '../approvals/approval-chain.repo.js'
import { plannedBatchSteps } from '../approvals/approval-rules.js'
import { draftCreditTransfer, externalIdTaken } from '../credit-transfers/credit-transfer.service.js'
import type { BankToday } from '../lifecycle/bank-date.js'
import { movePayment } from '../lifecycle/payment.js'
import { paymentRepo } from '../lifecycle/payment.repo.js'
import { insertPayment, stepRowsOf, type PaymentDraft } from '../lifecycle/payment-creation.js'
import type { BatchRecord } from './batch-records.js'
import { recordBatchEvent } from './credit-transfer-batch.js'
import { creditTransferBatchRepo } from './credit-transfer-batch.repo.js'
import type { BatchError, BatchInputContent, BatchResultSummary, CreditTransferBatch } from './credit-transfer-batch.schemas.js'

/** A batch to make: its fields, its records (batch-records.ts), and what its input was. */
export interface NewBatch {
  treatment: 'INDIVIDUAL_PAYMENTS' | 'BATCH'
  skipValidationErrors: boolean
  externalId?: string
  metadata?: Record<string, string>
  records: BatchRecord[]
  inputContent: BatchInputContent
}

/** A record after the bank's rules: a draft to store, or its errors. */
interface CheckedRecord {
  recordIndex: number
  draft?: PaymentDraft
  errors: BatchError[]
}

function errorsOf(error: ApiError): BatchError[] {
  return error.details?.length ? error.details : [{ code: error.code, field: '', error: error.message }]
}

/**
 * Each record through draftCreditTransfer — the rules of POST /payments/v2/credit-transfers, one copy of them —
 * then externalIds checked as the unique index would, so that a repeated one is its record's error instead of
 * the batch's failure. @throws what draftCreditTransfer throws that is not an ApiError (a driver error).
 */
async function checkRecords(trx: Executor, actor: Actor, records: BatchRecord[], bankToday: BankToday): Promise<CheckedRecord[]> {
  const checked: CheckedRecord[] = []
  const externalIds = new Set<string>()
  for (const record of records) {
    if (!record.input) {
      checked.push(record)
      continue
    }
    try {
      const draft = await draftCreditTransfer(trx, actor, record.input, bankToday)
      const externalId = draft.externalId
      if (externalId !== undefined && (externalIds.has(externalId) || (await paymentRepo.find(trx, actor.organizationId, 'CREDIT_TRANSFER', { externalId })) !== undefined)) {
        throw new ApiError('external_id_taken', undefined, [{ code: 'external_id_taken', field: 'externalId', error: `${externalId} is already used by another credit transfer of this organization or record of this batch` }])
      }
      if (externalId !== undefined) externalIds.add(externalId)
      checked.push({ recordIndex: record.recordIndex, draft, errors: [] })
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      checked.push({ recordIndex: record.recordIndex, errors: errorsOf(error) })
    }
  }
  return checked
}

/**
 * A BATCH batch is one approval of one debit: its payments share one source account, and so one currency, and its
 * total is what the approval chains judge. @throws ApiError invalid_request (400, field payments) otherwise.
 */
function batchTotal(drafts: PaymentDraft[]): { accountId: string; currency: string; total: number } {
  const [first] = drafts
  const other = drafts.find((draft) => draft.accountId !== first!.accountId)
  if (other) {
    throw invalidField('payments', `a batch of treatment BATCH pays from one source account, approved as one; it names ${first!.accountId} and ${other.accountId}: send one batch per account`)
  }
  const total = drafts.reduce((sum, draft) => sum + draft.amount, 0)
  if (!Number.isSafeInteger(total)) throw invalidField('payments', 'the total of the batch is too large to hold exactly: split it')
  return { accountId: first!.accountId, currency: first!.currency, total }
}

/**
 * What becomes of each record (spec: issue 13, documented in README "Credit transfer batches"):
 * - valid records become payments, unless the batch is BATCH, has invalid records and does not skip them: then
 *   nothing is created, the valid records are skipped and the batch names why in its errors;
 * - invalid records are failed, or skipped (their errors kept) with skipValidationErrors.
 */
function outcome(batch: NewBatch, checked: CheckedRecord[]) {
  const invalid = checked.filter((record) => !record.draft).length
  const refused = batch.treatment === 'BATCH' && invalid > 0 && !batch.skipValidationErrors
  const created = refused ? [] : checked.filter((record) => record.draft)
  const summary: BatchResultSummary = {
    total: checked.length,
    succeeded: created.length,
    failed: batch.skipValidationErrors ? 0 : invalid,
    skipped: checked.length - created.length - (batch.skipValidationErrors ? 0 : invalid),
  }
  const errors: BatchError[] = refused
    ? [{ code: 'invalid_records', field: 'payments', error: `${invalid} of ${checked.length} records are invalid (see the results); a batch of treatment BATCH creates all its payments or none: correct them, or send skipValidationErrors true to create the valid ones` }]
    : []
  return { refused, created, summary, errors }
}

/**
 * `bankToday` dates each payment from its source account's bank; `onApproved` is told when payments become
 * APPROVED (automatically approved ones), so that submission to the bank starts at once.
 */
export function createCreditTransferBatchService(bankToday: BankToday, onApproved: () => void) {
  return {
    /**
     * Processes the batch within the request, in its one transaction: the batch, its payments with their events, its
     * results and the idempotent answer commit together. Answers the batch COMPLETED.
     * @throws ApiError invalid_request (400: a BATCH batch over several source accounts), external_id_taken (409: the
     * batch's externalId, or a payment's taken by a request that ran meanwhile).
     */
    async create(ctx: CommandContext, batch: NewBatch): Promise<CreditTransferBatch> {
      const { actor } = ctx
      // Told after the commit; the transaction's value is the answer the Idempotency-Key stores.
      let approved = false
      try {
        const answer = await ctx.transaction(async (trx) => {
          if (batch.externalId !== undefined && (await creditTransferBatchRepo.externalIdTaken(trx, actor.organizationId, batch.externalId))) {
            throw new ApiError('external_id_taken', 'The externalId is already used by a credit transfer batch of this organization')
          }
          const checked = await checkRecords(trx, actor, batch.records, bankToday)
          const { refused, created, summary, errors } = outcome(batch, checked)
          const id = newId()
          const now = nowIso()
          const drafts = created.map((record) => record.draft!)
          const approvedTogether = batch.treatment === 'BATCH' && drafts.length > 0
          const total = approvedTogether ? batchTotal(drafts) : undefined
          const row: CreditTransferBatchesTable = {
            id,
            organization_id: actor.organizationId,
            external_id: batch.externalId ?? null,
            treatment: batch.treatment,
            skip_validation_errors: batch.skipValidationErrors ? 1 : 0,
            status: 'COMPLETED',
            input_content: JSON.stringify(batch.inputContent),
            result_summary: JSON.stringify(summary),
            errors: JSON.stringify(errors),
            currency: total?.currency ?? null,
            total: total?.total ?? null,
            creator_user_id: actor.userId,
            metadata: JSON.stringify(batch.metadata ?? {}),
            version: 1,
            created: now,
            updated: now,
          }
          const plan = total
            ? plannedBatchSteps(
                await approvalChainRepo.listLive(trx, actor.organizationId),
                { kind: 'CREDIT_TRANSFER', accountId: total.accountId, currency: total.currency, amount: total.total, creatorRoleId: actor.roleId },
                drafts.map((draft) => draft.amount),
                await ownerRoleId(trx, actor.organizationId),
              )
            : []
          const steps: CreditTransferBatchApprovalStepsTable[] = stepRowsOf(plan, now).map((step) => ({ ...step, batch_id: id }))
          await creditTransferBatchRepo.insert(trx, row, steps)
          const paymentIds = new Map<number, string>()
          for (const record of created) {
            const payment = await insertPayment(trx, actor, { ...record.draft!, batch: { id, treatment: batch.treatment } })
            paymentIds.set(record.recordIndex, payment.id)
            approved ||= payment.status === 'APPROVED'
          }
          // Every step automatic (a chain's autoApprove, or a total below its autoApproveBelow): approved at once.
          if (total && plan.every((step) => step.autoApproved)) {
            for (const payment of await creditTransferBatchRepo.lockAwaitingPayments(trx, id)) {
              await movePayment(trx, payment, 'APPROVED', { originator: SYSTEM_ORIGINATOR, message: `Automatically approved with batch ${id}` })
            }
            approved = true
          }
          const results: CreditTransferBatchResultsTable[] = checked.map((record) => ({
            batch_id: id,
            record_index: record.recordIndex,
            payment_id: paymentIds.get(record.recordIndex) ?? null,
            errors: JSON.stringify(record.errors),
            skipped: !paymentIds.has(record.recordIndex) && (refused ? record.errors.length === 0 : batch.skipValidationErrors) ? 1 : 0,
          }))
          await creditTransferBatchRepo.insertResults(trx, results)
          return recordBatchEvent(trx, row, { type: 'CREATED', name: 'CREATED', originator: actor.userId })
        })
        if (approved) onApproved()
        return answer
      } catch (error) {
        if (isUniqueViolation(error)) throw externalIdTaken()
        throw error
      }
    },
  }
}
