import type { ApprovalStep, Payment } from '../api/types'

/** Who is looking: the signed-in person's user and role. */
export interface Approver {
  userId: string
  roleId: string
}

/**
 * The step of `payment` that `approver` may approve now, or undefined. It is the API's own rule
 * (checkApprover in src/payments/approvals/approval-rules.ts), applied to what the payment shows: a
 * pending step whose roles or users name the approver; not the payment's creator unless the step allows
 * it; and not a second step of a chain whose other step they approved already (separation of duties).
 * The API stays the judge — a refusal it gives anyway is shown to the person.
 */
export function approvableStep(payment: Pick<Payment, 'status' | 'approvalSteps' | 'creatorUserId'>, approver: Approver): ApprovalStep | undefined {
  if (payment.status !== 'CREATED') return undefined
  const chainsApproved = new Set(
    payment.approvalSteps
      .filter((step) => step.status === 'APPROVED' && step.approver?.id === approver.userId && step.approvalChainId)
      .map((step) => step.approvalChainId),
  )
  return payment.approvalSteps.find(
    (step) =>
      step.status === 'PENDING' &&
      ((step.requiredRoleIds ?? []).includes(approver.roleId) || (step.requiredUserIds ?? []).includes(approver.userId)) &&
      (payment.creatorUserId !== approver.userId || step.allowCreatorApproval) &&
      !(step.approvalChainId && chainsApproved.has(step.approvalChainId)),
  )
}
