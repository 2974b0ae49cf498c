import type { ApprovalStep, CreditTransfer, DirectDebit, Payment, Session } from '../api/types'
import type { PaymentKind } from '../payments/parties'
import { approvableStep } from './approvable-step'

/** A payment waiting for a step the signed-in person may approve, and that step. */
export type WaitingApproval =
  | { kind: 'CREDIT_TRANSFER'; payment: CreditTransfer; step: ApprovalStep }
  | { kind: 'DIRECT_DEBIT'; payment: DirectDebit; step: ApprovalStep }

/**
 * A page of `approvableBy=me` with the step of each payment that its Approve button decides: the API chose the
 * payments by its rules; approvableStep finds the step they allow the person (the first, where several do).
 */
export function waitingApprovals(session: Session, kind: PaymentKind, payments: Payment[]): WaitingApproval[] {
  const approver = { userId: session.user.id, roleId: session.role.id }
  return payments.flatMap((payment) => {
    const step = approvableStep(payment, approver)
    // The payment's kind is the list's: the union cannot see that `kind` and `payment` go together.
    return step ? [{ kind, payment, step } as WaitingApproval] : []
  })
}
