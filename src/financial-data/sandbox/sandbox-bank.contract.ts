import type { Executor } from '../../db/database.js'
import type { BankTransactionCode, Transaction, TransactionCounterparty } from '../transactions/transaction.schemas.js'
import type { BankConnector, PaymentStatusListener, PaymentStatusReport } from './bank-connector.js'

/** What the sandbox bank offers beyond a BankConnector: its clock, injections and background steps. */

export const SANDBOX_CONNECTOR = 'sandbox'
/** The most days one step may move the clock. */
export const MAX_ADVANCE_DAYS = 366

/** Where a step moves the clock: by whole days, to a date, or to a date only if it is behind it. */
export type AdvanceTarget = { days: number } | { to: string } | { atLeast: string }

export interface StepResult {
  organizationId: string
  previousToday: string
  today: string
  /** Every status change of the step, in the order the listener received them. */
  reports: PaymentStatusReport[]
}

/** A booked entry injected into an account, as a test or demo would have the bank book it. */
export interface Injection {
  accountId: string
  /** Signed minor units of the account's currency: negative is an outflow. */
  amount: number
  currency: string
  /** Booking date: the bank's today by default; any day from the account's opening date to today. */
  date?: string
  valueDate?: string
  description: string
  reference?: string
  endToEndId?: string
  counterparty?: TransactionCounterparty
  bankTransactionCode?: BankTransactionCode
}

export interface SandboxClock {
  organizationId: string
  /** The bank's business date. */
  today: string
  /** How far the bank's date is ahead of the real (UTC) date. */
  daysAhead: number
  /** Instructions waiting for their date or accepted and not yet executed. */
  openInstructions: number
}

export interface ProcessDueResult {
  results: StepResult[]
  errors: { organizationId: string; error: unknown }[]
}

/**
 * The sandbox bank: a BankConnector for the accounts it holds, plus what only a simulated bank
 * can do — move its clock, book injected entries — and `processDue` for a background worker.
 */
export interface SandboxBank extends BankConnector {
  /** Whether the account is held at the sandbox bank. */
  holds(db: Executor, accountId: string): Promise<boolean>
  /** The organization's clock; undefined when it has no sandbox bank. */
  clock(db: Executor, organizationId: string, now?: Date): Promise<SandboxClock | undefined>
  /**
   * One step in the caller's transaction: moves the clock to the target and processes every
   * instruction due on each day on the way (funds checks, executions, returns), reporting each
   * change to the listener, then reports the balances the ledger now gives.
   * @throws ApiError not_found (no sandbox bank), invalid_request (target before today or too far).
   */
  advanceIn(trx: Executor, organizationId: string, target: AdvanceTarget): Promise<StepResult>
  /** `advanceIn` in a transaction of its own. */
  advance(organizationId: string, target: AdvanceTarget): Promise<StepResult>
  /**
   * For a background worker: every bank whose clock is behind `now`'s (UTC) date moves up to it, and
   * every bank with instructions due on its today processes them — one transaction per organization.
   */
  processDue(now?: Date): Promise<ProcessDueResult>
  /**
   * Books an entry on a sandbox account in the caller's transaction, and re-reports its balances.
   * @throws ApiError not_found (no sandbox bank / account), invalid_request (currency, date, amount).
   */
  inject(trx: Executor, organizationId: string, injection: Injection): Promise<Transaction>
}

export interface SandboxBankOptions {
  /** Receives every status change after submission; by default the process-wide one (setPaymentStatusListener). */
  listener?: PaymentStatusListener
}
