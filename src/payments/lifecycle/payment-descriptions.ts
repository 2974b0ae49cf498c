/**
 * The OpenAPI descriptions of the operations credit transfers and direct debits share: approval (spec:
 * Approval rules, Authentication 5; checkApprover in approvals/approval-rules.ts), rejection, cancellation
 * (payment-cancellation.ts), and the event history (payment-status.ts). `noun` names the kind,
 * `permission` the scope the operation needs.
 */

export function approveDescription(noun: string, permission: string): string {
  return (
    `Approves the step approvalStepId (an id from approvalSteps whose status is PENDING) of a ${noun} awaiting ` +
    `approval. The caller needs ${permission} and must hold one of the step's requiredRoleIds or be one of its ` +
    "requiredUserIds (the Owner's step, given when no approval chain matched, needs the owner role). The payment's " +
    "creator may approve only a step that allows creator approval (the Owner's step does), and one user only one " +
    'step of each chain; where the organization requires a second factor for approvals, only a person signed in ' +
    'with a TOTP code may approve, not an access key: 403 otherwise. When the last step is approved the ' +
    `${noun} becomes APPROVED (event FULLY_APPROVED) and goes to the bank. 400 when approvalStepId is not a step ` +
    'of this payment; 409 when the payment is not CREATED, the step is already decided, or a concurrent approval won.'
  )
}

export function rejectDescription(noun: string, permission: string): string {
  return (
    `Rejects a ${noun} awaiting approval (CREATED): it becomes REJECTED, which is final, and its first pending ` +
    `step is marked REJECTED. Any user with ${permission} may reject, whether or not a step names them (as in the ` +
    'reference: a rejection moves no money, so the four-eyes rule of approving does not apply). The body may be left ' +
    "out; its reason (up to 255 characters) becomes the payment's statusReason (code CUST) and the message of the " +
    'REJECTED event; an approvalStepId, if sent, must be one of its steps. 409 when the payment is not awaiting approval.'
  )
}

export function cancelDescription(noun: string, permission: string): string {
  return (
    `Cancels a ${noun} the bank does not have yet: CREATED, APPROVED or PENDING_SUBMISSION (also one waiting there ` +
    'because no bank connection serves its account). It becomes CANCELLED, which is final (event CANCELLED); nothing ' +
    `is sent to the bank, and its approval steps stay as they were. Needs ${permission} (as the reference's mandate ` +
    ":cancel needs mandates:update). The body may be left out; its reason (up to 255 characters) becomes the payment's " +
    'statusReason (code CUST) and the message of the CANCELLED event. A cancel racing the submission to the bank ' +
    'has one outcome: cancelled and never sent, or sent and this a 409. 409 once the payment was sent (SENT and ' +
    'after: the bank has it, ask it to recall the payment), and when it is already final (REJECTED, FAILED, CANCELLED).'
  )
}

/** `dateChanges`: whether the kind's requested date can be changed (PATCH), which records DATE_CHANGED. */
export function paymentEventsDescription(noun: string, dateChanges: boolean): string {
  return (
    `The ${noun}'s history: CREATED; APPROVAL_STEP_APPROVED for each step approved before the last, then ` +
    `FULLY_APPROVED, or REJECTED;${dateChanges ? ' DATE_CHANGED;' : ''} then its way through the bank: ` +
    'PENDING_SUBMISSION, SENT_TO_BANK, PENDING_AT_BANK, ACCEPTED_BY_BANK, EXECUTED, RECONCILED; FAILED or RETURNED ' +
    "when the bank refuses or returns it (the payment's statusReason says why); CANCELLED when it was cancelled " +
    'before the bank had it. Each event ' +
    `gives the version of the ${noun} after it and who caused it (a user id, BANK, or KASSA for the system).`
  )
}
