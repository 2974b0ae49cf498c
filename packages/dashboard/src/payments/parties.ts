import type { AccountSnapshot, CreditTransfer, DirectDebit } from '../api/types'

export type PaymentKind = 'CREDIT_TRANSFER' | 'DIRECT_DEBIT'

export const KIND_LABEL: Record<PaymentKind, string> = { CREDIT_TRANSFER: 'Credit transfer', DIRECT_DEBIT: 'Direct debit' }

export interface Parties {
  /** Who is paid (credit transfer) or collected from (direct debit), and their account. */
  counterparty: { name: string; account: AccountSnapshot }
  /** The organization's own account the money leaves (credit transfer) or arrives at (direct debit). */
  ownAccount: AccountSnapshot
}

/**
 * The two sides of a payment as people think of them. A credit transfer goes from an own account to the
 * counterparty's; a direct debit collects from the counterparty's account into an own one (reference §2.7).
 */
export function partiesOf(kind: PaymentKind, payment: CreditTransfer | DirectDebit): Parties {
  return kind === 'CREDIT_TRANSFER'
    ? { counterparty: { name: payment.destinationHolder.legalName, account: payment.destination }, ownAccount: payment.source }
    : { counterparty: { name: payment.sourceHolder.legalName, account: payment.source }, ownAccount: payment.destination }
}
