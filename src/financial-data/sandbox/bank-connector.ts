import type { Executor } from '../../db/database.js'
import type { Address } from '../../shared/common.schemas.js'
import type { Transaction } from '../transactions/transaction.schemas.js'
import type { InstructionStatus, PaymentType } from './instruction-rules.js'

/**
 * How Kassa talks to a bank about payments. The payments domain hands approved payments to the
 * connector of the debited (or, for a direct debit, credited) own account, and learns what the
 * bank did through a PaymentStatusListener. The sandbox bank is one connector; a connector for a
 * real bank would write pain.001/pain.008 files on `submit` and call the listener as pain.002
 * status reports and camt.053/054 statements come in — the payments domain cannot tell them apart.
 *
 * Contract
 * - `submit` runs in the caller's transaction: the instruction is stored (and funds reserved) only
 *   if the caller commits. It returns the bank's acknowledgement; that first report is NOT also sent
 *   to the listener. Submitting the same paymentId again returns the instruction's current state
 *   and changes nothing.
 * - Every later change reaches the listener, in order, in the transaction of the bank step that
 *   made it. If the listener throws, the step rolls back: bank and payments never disagree.
 * - A report that books money carries the booked `transaction` (amount signed for the own
 *   account, `references.endToEndId` = the instruction's endToEndId), so the payment can be
 *   reconciled to it. EXECUTED carries the execution, RETURNED the return entry.
 * - Lock order: a caller that locks its payment rows and then submits takes payment → bank; the
 *   bank's steps lock the bank first and then call the listener. A listener must only touch the
 *   payment the report is about.
 * - A bank reached by files (connectivity/files-out) does not have the instruction until its file is
 *   made: it acknowledges PENDING_SUBMISSION, and reports SENT (with the file's message id as the
 *   instruction id) when it gathers the payment into a file. Until then the payment may be cancelled;
 *   the payments domain then withdraws it (connectivity's withdrawQueuedPayment), taking payment → queue
 *   as above, so the file-making step calls the listener before it claims the queued instructions.
 */

export type { InstructionStatus, PaymentType } from './instruction-rules.js'

/**
 * The bank's statuses and Kassa's payment statuses share names: SENT means delivered, no answer yet;
 * PENDING_SUBMISSION (an acknowledgement only) means queued for the bank's next file, not delivered yet.
 */
export type BankStatus = InstructionStatus | 'SENT' | 'PENDING_SUBMISSION'

export interface PaymentInstruction {
  /** The Kassa payment this instructs (credit transfer or direct debit id): the idempotency key. */
  paymentId: string
  paymentType: PaymentType
  organizationId: string
  /** The own account debited (credit transfer) or credited (direct debit collection). */
  accountId: string
  /** Positive minor units of `currency`, which must be the account's. */
  amount: number
  currency: string
  /** The requested execution (credit transfer) or due (direct debit) date, yyyy-mm-dd. */
  executionDate: string
  /** The beneficiary (credit transfer) or debtor (direct debit). */
  counterparty: { name: string; iban: string; bic?: string; address?: Address }
  /** Remittance information, unstructured. */
  reference?: string
  /** Travels with the payment to the booked entry: how the payment is reconciled. */
  endToEndId: string
  /** Direct debits: the mandate reference. */
  mandateReference?: string
  /** Direct debits: the day the debtor signed the mandate, yyyy-mm-dd. */
  mandateSignatureDate?: string
  /** Direct debits: the first collection under the mandate (FRST) or a later one (RCUR). */
  sequenceType?: 'FRST' | 'RCUR'
  /** SCT, SCT_INST, SDD_CORE, SDD_B2B… (informational; picks the bank transaction code). */
  scheme?: string
}

export interface PaymentStatusReport {
  /** Which connector reports: 'sandbox' for the sandbox bank. */
  connector: string
  /** The bank's id of the instruction (Kassa's connectionInstructionId). */
  instructionId: string
  paymentId: string
  paymentType: PaymentType
  organizationId: string
  accountId: string
  status: BankStatus
  /** ISO 20022 reason, on FAILED (e.g. AM04 insufficient funds) and RETURNED (e.g. AC04 closed account). */
  reason?: { code: string; description: string }
  /** The bank's business date of the change. */
  bankDate: string
  endToEndId: string
  /** The entry this change booked on the own account: the execution (EXECUTED) or the return (RETURNED). */
  transaction?: Transaction
  /** What the bank's side says about the change, for the payment's event (e.g. the file it went in). */
  message?: string
}

/** What a report did: the payment's status before and after (equal when the report was stale or impossible for it). */
export interface AppliedReport {
  from: string
  to: string
}

/** Implemented by the payments domain: applies a bank's report to the payment, in the bank's transaction. */
export interface PaymentStatusListener {
  onPaymentStatus(trx: Executor, report: PaymentStatusReport): Promise<AppliedReport>
}

export interface BankConnector {
  /** 'sandbox', or the name of a real bank's file channel. */
  readonly name: string
  /** The bank's current business date for the organization: payments dated before it are late. */
  today(db: Executor, organizationId: string): Promise<string>
  /**
   * Hands an instruction to the bank in the caller's transaction; returns the acknowledgement
   * (ACCEPTED, PENDING_AT_BANK, FAILED — or SENT for a bank that answers later).
   * @throws BankConnectorError when the account is not held at this bank.
   */
  submit(trx: Executor, instruction: PaymentInstruction): Promise<PaymentStatusReport>
  /** The instruction's current state, if the bank has received it. */
  find(db: Executor, organizationId: string, paymentId: string): Promise<PaymentStatusReport | undefined>
}

/** The originator of the events of entries a bank booked. */
export const BANK_ORIGINATOR = 'BANK'

/** A programming error at the connector boundary (e.g. an account the connector does not hold). */
export class BankConnectorError extends Error {
  override readonly name = 'BankConnectorError'
}

let processListener: PaymentStatusListener | undefined

/**
 * Registers the listener every bank step reports to, process-wide. The payments domain calls this
 * once when its module loads, so the server, the CLI and the background worker all report to it.
 * A bank built with an explicit listener (tests) uses that one instead.
 */
export function setPaymentStatusListener(listener: PaymentStatusListener | undefined): void {
  processListener = listener
}

export function paymentStatusListener(): PaymentStatusListener | undefined {
  return processListener
}

/**
 * Takes a sandbox bank report the bank answers by file instead (connectivity's simulated bank, for accounts on a
 * connection whose other side is the sandbox bank): true when it took it, and the payments then learn of it from
 * the file. Runs in the bank step's transaction, as a listener does.
 */
export type FileAnswer = (trx: Executor, report: PaymentStatusReport) => Promise<boolean>

let processFileAnswer: FileAnswer | undefined

/** Registered once by connectivity when its module loads; the sandbox bank asks it before its listener. */
export function setFileAnswer(answer: FileAnswer | undefined): void {
  processFileAnswer = answer
}

export function fileAnswer(): FileAnswer | undefined {
  return processFileAnswer
}
