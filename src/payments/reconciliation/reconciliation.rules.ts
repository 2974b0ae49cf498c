import type { PaymentKind } from '../lifecycle/payment.repo.js'
import type { PaymentStatus } from '../lifecycle/payment-status.js'

/**
 * The rules of reconciliation by hand (issue 12), pure: which payment may be attached to which booked
 * transaction. The service applies them to the rows it holds.
 */

/**
 * A payment is attached from these: the bank has it (reference §3.1) and it is not final. It then walks the
 * lifecycle to EXECUTED and RECONCILED, each step an event.
 */
export const ATTACHABLE_STATUSES: readonly PaymentStatus[] = ['SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED']

/** Why a payment in `status` cannot be attached (the 409's message); undefined when it can. */
export function whyNotAttachable(status: PaymentStatus, attachedTransactionIds: readonly string[]): string | undefined {
  if (ATTACHABLE_STATUSES.includes(status)) return undefined
  switch (status) {
    case 'CREATED':
    case 'APPROVED':
    case 'PENDING_SUBMISSION':
      return `The payment is ${status}: it was never sent to the bank, so no booking can be its execution`
    case 'RECONCILED':
      return `The payment is already RECONCILED to transaction ${attachedTransactionIds.join(', ')}: detach it there first`
    case 'RETURNED':
      return 'The payment is RETURNED: the bank returned it, which is final, and its bookings are attached as the bank reported them'
    default:
      return `The payment is ${status}, which is final: it was never executed, so no booking can be its execution`
  }
}

/** Why a RECONCILED payment attached to the transaction cannot be detached from it (the 409's message); undefined when it can. */
export function whyNotDetachable(status: PaymentStatus, attached: boolean, transactionId: string): string | undefined {
  if (!attached) return `The payment is not attached to transaction ${transactionId}`
  if (status !== 'RECONCILED') {
    return `The payment is ${status}: only a RECONCILED payment is detached by hand (a returned one keeps the bookings the bank reported)`
  }
  return undefined
}

export interface MatchedPayment {
  kind: PaymentKind
  /** The payment's own account: the source of a credit transfer, the destination of a direct debit. */
  accountId: string
  currency: string
  /** Minor units, positive. */
  amount: number
}

export interface MatchedTransaction {
  accountId: string
  currency: string
  /** Minor units, signed: negative is an outflow. */
  amount: number
  /** What the payments already attached to it add up to, in minor units. */
  attachedTotal: number
}

/** A 422's detail: the field of the payment that does not match, and how. */
export interface Mismatch {
  field: string
  error: string
}

/**
 * The first way the payment does not match the booking (undefined when it does): the booking is on the
 * payment's own account in its currency; a credit transfer pays out (a negative amount), a direct debit
 * collects (a positive one); and the payments attached add up to no more than the booked amount.
 */
export function mismatchOf(payment: MatchedPayment, transaction: MatchedTransaction): Mismatch | undefined {
  const ownAccount = payment.kind === 'CREDIT_TRANSFER' ? 'source.id' : 'destination.id'
  if (payment.accountId !== transaction.accountId) {
    return { field: ownAccount, error: `the payment's own account ${payment.accountId} is not the transaction's account ${transaction.accountId}` }
  }
  if (payment.currency !== transaction.currency) {
    return { field: 'amount.currency', error: `the payment is in ${payment.currency}, the transaction in ${transaction.currency}` }
  }
  if (payment.kind === 'CREDIT_TRANSFER' && transaction.amount >= 0) {
    return { field: 'type', error: 'a credit transfer pays out: it matches a transaction with a negative amount only' }
  }
  if (payment.kind === 'DIRECT_DEBIT' && transaction.amount <= 0) {
    return { field: 'type', error: 'a direct debit collects: it matches a transaction with a positive amount only' }
  }
  const booked = Math.abs(transaction.amount)
  if (transaction.attachedTotal + payment.amount > booked) {
    return {
      field: 'amount.value',
      error: `the payments attached would add up to ${transaction.attachedTotal + payment.amount}, more than the ${booked} booked (minor units)`,
    }
  }
  return undefined
}
