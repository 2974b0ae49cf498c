import { withdrawQueuedPayment } from '../../connectivity/index.js'
import { ApiError } from '../../http/errors.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { CommandContext } from '../../shared/command-context.js'
import { lockPayment, transitionPayment, type Payment } from './payment.js'
import type { PaymentKind } from './payment.repo.js'
import { REQUESTED_BY_CUSTOMER, type CancelBody } from './payment.schemas.js'
import { canTransition, isWithBank, type PaymentStatus } from './payment-status.js'

/** The 409 of a payment that cannot be cancelled: the bank has it, or it is final. */
function notCancellable(status: PaymentStatus): ApiError {
  if (isWithBank(status)) {
    return new ApiError(
      'conflict',
      `The payment is ${status}: it was sent to the bank, which has it now, so it can no longer be cancelled here; ask the bank to recall it`,
    )
  }
  if (status === 'CANCELLED') return new ApiError('conflict', 'The payment is already CANCELLED')
  return new ApiError('conflict', `The payment is ${status}, which is final: there is nothing to cancel`)
}

/**
 * Cancels a payment the bank does not have yet — CREATED, APPROVED or PENDING_SUBMISSION, also one waiting
 * for a bank connection that does not exist (issue 12) — into CANCELLED, which is final. Its event (and so its
 * webhook deliveries) commits in the transaction that stores the response. The reason, if given, is kept as
 * the statusReason (code CUST, as a rejection's) and the event's message; approval steps stay as they were.
 * The row is locked first (lockPayment): a submission running at the same time either commits before, and
 * this answers 409 because the bank has the payment, or finds it CANCELLED and sends nothing.
 * @throws ApiError not_found (404), conflict (409: with the bank, or final).
 */
export async function cancelPayment(ctx: CommandContext, kind: PaymentKind, ref: ResourceRef, body: CancelBody): Promise<Payment> {
  return ctx.transaction(async (trx) => {
    const current = await lockPayment(trx, ctx.actor.organizationId, kind, ref)
    const status = current.status as PaymentStatus
    if (!canTransition(status, 'CANCELLED')) throw notCancellable(status)
    // Queued for a bank file (bank-connector.ts): taken out of the queue in this transaction, so it is in no file.
    if (status === 'PENDING_SUBMISSION') await withdrawQueuedPayment(trx, current.organization_id, current.id)
    return transitionPayment(trx, current, 'CANCELLED', {
      originator: ctx.actor.userId,
      message: body.reason ?? 'Cancelled',
      statusReason: { code: REQUESTED_BY_CUSTOMER, ...(body.reason !== undefined ? { message: body.reason } : {}) },
    })
  })
}
