import type { BankTransactionCode, ReturnReason } from '../transactions/transaction.schemas.js'

/**
 * ISO 20022 bank transaction codes (ExternalBankTransactionDomain/Family/SubFamily code sets)
 * the sandbox bank books with, as a real bank's camt.053 would carry them.
 */
function code(domain: string, family: string, subfamily: string, description: string): BankTransactionCode {
  return { domain, family, subfamily, description }
}

export const BTC = {
  /** Received SEPA credit transfer (a customer pays us). */
  sepaCreditReceived: code('PMNT', 'RCDT', 'ESCT', 'SEPA credit transfer received'),
  /** Issued SEPA credit transfer (we pay a supplier). */
  sepaCreditIssued: code('PMNT', 'ICDT', 'ESCT', 'SEPA credit transfer issued'),
  /** Domestic (non-SEPA) credit transfers, e.g. in SEK. */
  domesticCreditReceived: code('PMNT', 'RCDT', 'DMCT', 'Domestic credit transfer received'),
  domesticCreditIssued: code('PMNT', 'ICDT', 'DMCT', 'Domestic credit transfer issued'),
  salaryIssued: code('PMNT', 'ICDT', 'SALA', 'Payroll/salary payment'),
  /** Transfers between accounts of the same holder at the same bank. */
  bookTransferIssued: code('PMNT', 'ICDT', 'BOOK', 'Internal book transfer'),
  bookTransferReceived: code('PMNT', 'RCDT', 'BOOK', 'Internal book transfer'),
  /** A card acquirer pays out the card sales it collected for us. */
  cardSettlement: code('PMNT', 'MCRD', 'POSP', 'Merchant card settlement'),
  /** A creditor collects from us under a SEPA Core mandate. */
  directDebitPaid: code('PMNT', 'RDDT', 'ESDD', 'SEPA direct debit paid'),
  /** We collect from a debtor under a mandate (Core / B2B). */
  directDebitCollected: code('PMNT', 'IDDT', 'ESDD', 'SEPA direct debit collected'),
  directDebitCollectedB2b: code('PMNT', 'IDDT', 'BBDD', 'SEPA B2B direct debit collected'),
  /** The debtor's bank returned a collection. */
  directDebitReturned: code('PMNT', 'IDDT', 'UPDD', 'Reversal due to return/unpaid direct debit'),
  /** The beneficiary's bank returned a credit transfer we issued. */
  creditTransferReturned: code('PMNT', 'ICDT', 'RRTN', 'Reversal due to payment return'),
  fees: code('ACMT', 'MDOP', 'CHRG', 'Charges'),
  /** Anything injected through the sandbox endpoints without a code of its own. */
  miscellaneousCredit: code('PMNT', 'MCOP', 'OTHR', 'Miscellaneous credit operation'),
  miscellaneousDebit: code('PMNT', 'MDOP', 'OTHR', 'Miscellaneous debit operation'),
} as const

/** ISO 20022 ExternalStatusReason / ExternalReturnReason codes the sandbox bank answers with. */
export const REASONS = {
  AC01: 'Incorrect account number',
  AC04: 'Closed account number',
  AM03: 'Not allowed currency',
  AM04: 'Insufficient funds',
  AM12: 'Invalid amount',
  MD06: 'Refund request by end customer',
} as const
export type ReasonCode = keyof typeof REASONS

export function reasonOf(code: ReasonCode): ReturnReason {
  return { code, description: REASONS[code] }
}

/** Payments to (credit transfers) or from (direct debits) this IBAN are executed, then returned with AC04 — as the reference's Testbank does. */
export const RETURNING_IBAN = 'DE40500105176499974616'
