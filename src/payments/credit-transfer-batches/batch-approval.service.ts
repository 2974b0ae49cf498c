import type { Executor } from '../../db/database.js'
import type { CreditTransferBatchesTable } from '../../db/schema.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import { recordAuditEntry } from '../../iam/index.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { checkApprover } from '../approvals/approval-rules.js'
import { assertMayApprove, stepState } from '../approvals/payment-approval.service.js'
import { movePayment } from '../lifecycle/payment.js'
import { REQUESTED_BY_CUSTOMER, type RejectBody } from '../lifecycle/payment.schemas.js'
import { BATCH_ENTITY_TYPE, findBatch, recordBatchEvent, serializeBatch } from './credit-transfer-batch.js'
import { creditTransferBatchRepo, type BatchStepRow } from './credit-transfer-batch.repo.js'
import type { CreditTransferBatch } from './credit-transfer-batch.schemas.js'

/**
 * The batch awaiting its approval, with its steps; If-Match checked when given (reference §3.3: optional).
 * @throws ApiError not_found (404), precondition_failed (412), conflict (409: treatment INDIVIDUAL_PAYMENTS — its
 * payments are approved one by one —, a batch that created no payment, or one already approved or rejected).
 */
async function awaitingApproval(trx: Executor, ctx: CommandContext, ref: ResourceRef, ifMatch: string | undefined) {
  const batch = await findBatch(trx, ctx.actor.organizationId, ref)
  if (ifMatch !== undefined) assertEtag(ifMatch, etagOf(batch.version))
  if (batch.treatment !== 'BATCH') {
    throw new ApiError('conflict', 'Batch approval only applies to treatment BATCH; the payments of this batch are approved one by one')
  }
  const steps = await creditTransferBatchRepo.steps(trx, [batch.id])
  if (steps.length === 0) throw new ApiError('conflict', 'The batch created no payment: there is nothing to approve or reject')
  if (steps.some((step) => step.status === 'REJECTED')) throw new ApiError('conflict', 'The batch was rejected')
  if (!steps.some((step) => step.status === 'PENDING')) throw new ApiError('conflict', 'The batch is already approved')
  return { batch, steps }
}

/** A decision changes the batch: its version is bumped, so concurrent decisions serialize on it. @throws ApiError conflict (409) */
async function touch(trx: Executor, batch: CreditTransferBatchesTable, now: string): Promise<CreditTransferBatchesTable> {
  if (!(await creditTransferBatchRepo.update(trx, batch.id, batch.version, { updated: now }))) {
    throw new ApiError('conflict', 'The batch changed while this request ran; fetch it again')
  }
  return { ...batch, version: batch.version + 1, updated: now }
}

/** Issue 13: every decision on a batch is in the audit log (credit_transfer_batches.approve, .reject), as a payment's is. */
async function audited(trx: Executor, ctx: CommandContext, verb: 'approve' | 'reject', before: CreditTransferBatch, after: CreditTransferBatch): Promise<CreditTransferBatch> {
  await recordAuditEntry(trx, ctx, { action: `${BATCH_ENTITY_TYPE}.${verb}`, resourceType: BATCH_ENTITY_TYPE, resourceId: after.id, before, after })
  return after
}

/**
 * Approving and rejecting a batch of treatment BATCH as one (reference §3.3, §3.4): the rules of payment approval
 * (approval-rules.ts checkApprover: the step's role or user, the creator, one user per chain; the second factor an
 * organization may require), on the batch's steps; the last approval approves every payment of the batch at once.
 */
export function createBatchApprovalService(onApproved: () => void) {
  return {
    /**
     * Approves one step; the last one moves every payment of the batch still CREATED to APPROVED (each with its
     * FULLY_APPROVED event), due for submission to the bank.
     * @throws ApiError not_found (404), invalid_request (400: unknown step), forbidden (403), conflict (409), precondition_failed (412).
     */
    async approve(ctx: CommandContext, ref: ResourceRef, approvalStepId: string, ifMatch?: string): Promise<CreditTransferBatch> {
      // Told after the commit; the transaction's value is the answer the Idempotency-Key stores.
      let approved = false
      const batch = await ctx.transaction(async (trx) => {
        await assertMayApprove(trx, ctx.actor)
        const { batch: current, steps } = await awaitingApproval(trx, ctx, ref, ifMatch)
        const step = steps.find((candidate) => candidate.id === approvalStepId)
        if (!step) throw invalidField('approvalStepId', 'is not an approval step of this batch')
        checkApprover(stepState(step), steps.map(stepState), ctx.actor, current.creator_user_id)
        const before = await serializeBatch(trx, current)
        const now = nowIso()
        const row = await touch(trx, current, now)
        if (!(await creditTransferBatchRepo.decideStep(trx, step.id, { status: 'APPROVED', approverUserId: ctx.actor.userId, updated: now }))) {
          throw new ApiError('conflict', `The approval step ${step.id} was decided by another request`)
        }
        if (steps.some((other: BatchStepRow) => other.id !== step.id && other.status === 'PENDING')) {
          const event = { type: 'UPDATED', name: 'APPROVAL_STEP_APPROVED', originator: ctx.actor.userId, message: `Approval step ${step.id} approved` } as const
          return audited(trx, ctx, 'approve', before, await recordBatchEvent(trx, row, event))
        }
        for (const payment of await creditTransferBatchRepo.lockAwaitingPayments(trx, row.id)) {
          await movePayment(trx, payment, 'APPROVED', { originator: ctx.actor.userId, message: `Approved with batch ${row.id}` })
        }
        const event = { type: 'UPDATED', name: 'FULLY_APPROVED', originator: ctx.actor.userId, message: 'All approval steps approved' } as const
        approved = true
        return audited(trx, ctx, 'approve', before, await recordBatchEvent(trx, row, event))
      })
      if (approved) onApproved()
      return batch
    },

    /**
     * Rejects the batch and every payment of it still CREATED (final), as rejecting a payment does: no approver role
     * needed, the reason kept as each payment's statusReason (CUST) and the REJECTED events' message.
     * @throws ApiError not_found (404), invalid_request (400: an approvalStepId not of this batch), conflict (409), precondition_failed (412).
     */
    async reject(ctx: CommandContext, ref: ResourceRef, body: RejectBody, ifMatch?: string): Promise<CreditTransferBatch> {
      return ctx.transaction(async (trx) => {
        const { batch: current, steps } = await awaitingApproval(trx, ctx, ref, ifMatch)
        if (body.approvalStepId !== undefined && !steps.some((step) => step.id === body.approvalStepId)) {
          throw invalidField('approvalStepId', 'is not an approval step of this batch')
        }
        const before = await serializeBatch(trx, current)
        const now = nowIso()
        const row = await touch(trx, current, now)
        const pending = steps.find((step) => step.status === 'PENDING')!
        await creditTransferBatchRepo.decideStep(trx, pending.id, { status: 'REJECTED', approverUserId: ctx.actor.userId, updated: now })
        const statusReason = { code: REQUESTED_BY_CUSTOMER, ...(body.reason !== undefined ? { message: body.reason } : {}) }
        for (const payment of await creditTransferBatchRepo.lockAwaitingPayments(trx, row.id)) {
          await movePayment(trx, payment, 'REJECTED', { originator: ctx.actor.userId, message: body.reason ?? `Rejected with batch ${row.id}`, statusReason })
        }
        return audited(trx, ctx, 'reject', before, await recordBatchEvent(trx, row, { type: 'UPDATED', name: 'REJECTED', originator: ctx.actor.userId, message: body.reason ?? 'Rejected' }))
      })
    },
  }
}
