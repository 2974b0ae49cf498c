import type { Executor } from '../../db/database.js'
import type { PaymentApprovalStepsTable, PaymentsTable } from '../../db/schema.js'
import type { Actor } from '../../iam/actor.js'
import { ApiError, invalidField } from '../../http/errors.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { CommandContext } from '../../shared/command-context.js'
import { nowIso } from '../../shared/clock.js'
import { recordEvent } from '../../events/index.js'
import { organizationSettings, recordAuditEntry } from '../../iam/index.js'
import { findPayment, PAYMENT_ENTITY_TYPE, transitionPayment, serializePayment, toPayment, type Payment } from '../lifecycle/payment.js'
import type { PaymentKind } from '../lifecycle/payment.repo.js'
import { REQUESTED_BY_CUSTOMER, type RejectBody } from '../lifecycle/payment.schemas.js'
import { paymentRepo } from '../lifecycle/payment.repo.js'
import { checkApprover, type StepState } from './approval-rules.js'

/** A stored step of a payment's or a batch's, as checkApprover reads it. */
export function stepState(row: Omit<PaymentApprovalStepsTable, 'payment_id'>): StepState {
  return {
    id: row.id,
    approvalChainId: row.approval_chain_id,
    requiredRoleIds: JSON.parse(row.required_role_ids) as string[],
    requiredUserIds: JSON.parse(row.required_user_ids) as string[],
    allowCreatorApproval: row.allow_creator_approval === 1,
    status: row.status,
    approverUserId: row.approver_user_id,
  }
}

/**
 * Issue 11: the organization may require approvals from a person signed in with a TOTP code.
 * @throws ApiError forbidden (403) for an access key, or a session without one, where it does.
 */
export async function assertMayApprove(trx: Executor, actor: Actor): Promise<void> {
  if (!actor.secondFactor && (await organizationSettings.approvalsRequireSecondFactor(trx, actor.organizationId))) {
    throw new ApiError(
      'forbidden',
      'This organization requires approvals from a person signed in with a TOTP code (authenticator app); ' +
        'neither an access key nor a session without one may approve',
    )
  }
}

/** reference §3.3: a payment of a batch of treatment BATCH is approved and rejected with its batch only. @throws ApiError conflict (409) */
function assertApprovedAlone(payment: PaymentsTable): void {
  if (payment.batch_treatment === 'BATCH') {
    throw new ApiError(
      'conflict',
      `The payment is approved or rejected with its batch ${payment.batch_id}: POST /payments/v2/credit-transfer-batches/${payment.batch_id}:approve or :reject`,
    )
  }
}

/** Issue 13: every approval (of a step, or the last one) and rejection is in the audit log, e.g. credit_transfers.approve. */
async function recordDecision(trx: Executor, ctx: CommandContext, kind: PaymentKind, verb: 'approve' | 'reject', before: Payment, after: Payment): Promise<void> {
  const resourceType = PAYMENT_ENTITY_TYPE[kind]
  await recordAuditEntry(trx, ctx, { action: `${resourceType}.${verb}`, resourceType, resourceId: after.id, before, after })
}

/** Approving and rejecting payments of either kind (spec: Approval rules; reference §3.3). */
export function createPaymentApprovalService(onApproved: () => void) {
  return {
    /**
     * Approves one step; the last one makes the payment APPROVED (event FULLY_APPROVED) and due for submission.
     * @throws ApiError not_found (404), invalid_request (400: unknown step), forbidden (403: role, creator,
     * separation of duties, or no second factor where the organization requires one), conflict (409: not
     * awaiting approval, step decided, a racing approval won, or a payment approved with its batch).
     */
    async approve(ctx: CommandContext, kind: PaymentKind, ref: ResourceRef, approvalStepId: string): Promise<Payment> {
      const payment = await ctx.transaction(async (trx) => {
        await assertMayApprove(trx, ctx.actor)
        const current = await findPayment(trx, ctx.actor.organizationId, kind, ref)
        assertApprovedAlone(current)
        if (current.status !== 'CREATED') {
          throw new ApiError('conflict', `The payment is ${current.status}; only a CREATED payment awaits approval`)
        }
        const steps = await paymentRepo.steps(trx, [current.id])
        const step = steps.find((candidate) => candidate.id === approvalStepId)
        if (!step) throw invalidField('approvalStepId', 'is not an approval step of this payment')
        checkApprover(stepState(step), steps.map(stepState), ctx.actor, current.creator_user_id)
        const now = nowIso()
        if (!(await paymentRepo.decideStep(trx, step.id, { status: 'APPROVED', approverUserId: ctx.actor.userId, updated: now }))) {
          throw new ApiError('conflict', `The approval step ${step.id} was decided by another request`)
        }
        const stillPending = steps.some((other) => other.id !== step.id && other.status === 'PENDING')
        if (stillPending) {
          // A step decision changes the payment: bump its version so concurrent decisions serialize.
          if (!(await paymentRepo.update(trx, current.id, current.version, { updated: now }))) {
            throw new ApiError('conflict', 'The payment changed while this approval ran; fetch it again')
          }
          const payment = await serializePayment(trx, await findPayment(trx, ctx.actor.organizationId, kind, ref))
          // Every version has its event, so webhook receivers ordering by version see no gaps.
          await recordEvent(trx, {
            organizationId: current.organization_id,
            entityType: PAYMENT_ENTITY_TYPE[kind],
            entityId: current.id,
            type: 'UPDATED',
            name: 'APPROVAL_STEP_APPROVED',
            originator: ctx.actor.userId,
            message: `Approval step ${step.id} approved`,
            entity: payment,
          })
          await recordDecision(trx, ctx, kind, 'approve', toPayment(current, steps), payment)
          return payment
        }
        const approved = await transitionPayment(trx, current, 'APPROVED', { originator: ctx.actor.userId, message: 'All approval steps approved' })
        await recordDecision(trx, ctx, kind, 'approve', toPayment(current, steps), approved)
        return approved
      })
      if (payment.status === 'APPROVED') onApproved()
      return payment
    },

    /**
     * Rejects a payment awaiting approval (final). Any user with the approve permission may, whether or not
     * a step names them (reference §3.3: rejecting does not need the approver's role): a rejection moves no
     * money, so the four-eyes rule that guards approving has nothing to guard. The reason is kept as the
     * payment's statusReason (code CUST, ISO 20022's "requested by customer") and the REJECTED event's message.
     * @throws ApiError not_found (404), conflict (409: not awaiting approval, or rejected with its batch),
     * invalid_request (400: an approvalStepId that is not one of the payment's steps).
     */
    async reject(ctx: CommandContext, kind: PaymentKind, ref: ResourceRef, body: RejectBody): Promise<Payment> {
      return ctx.transaction(async (trx) => {
        const current = await findPayment(trx, ctx.actor.organizationId, kind, ref)
        assertApprovedAlone(current)
        if (current.status !== 'CREATED') {
          throw new ApiError('conflict', `The payment is ${current.status}; only a CREATED payment can be rejected`)
        }
        const steps = await paymentRepo.steps(trx, [current.id])
        if (body.approvalStepId !== undefined && !steps.some((step) => step.id === body.approvalStepId)) {
          throw invalidField('approvalStepId', 'is not an approval step of this payment')
        }
        const pending = steps.find((step) => step.status === 'PENDING')
        if (pending) await paymentRepo.decideStep(trx, pending.id, { status: 'REJECTED', approverUserId: ctx.actor.userId, updated: nowIso() })
        const rejected = await transitionPayment(trx, current, 'REJECTED', {
          originator: ctx.actor.userId,
          message: body.reason ?? 'Rejected',
          statusReason: { code: REQUESTED_BY_CUSTOMER, ...(body.reason !== undefined ? { message: body.reason } : {}) },
        })
        await recordDecision(trx, ctx, kind, 'reject', toPayment(current, steps), rejected)
        return rejected
      })
    },
  }
}

