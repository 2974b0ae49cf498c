import { sql } from 'kysely'
import { lockedSkippingLocked } from '../../db/claims.js'
import type { Database, Dialect, Executor } from '../../db/database.js'
import type { PaymentsTable } from '../../db/schema.js'
import { SYSTEM_ORIGINATOR } from '../../events/index.js'
import { bankConnectorFor } from '../../connectivity/index.js'
import type { PaymentInstruction } from '../../financial-data/sandbox/index.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { endToEndIdOf } from '../../shared/ids.js'
import { movePayment } from '../lifecycle/payment.js'
import { WITH_BANK } from '../lifecycle/payment-status.js'
import { paymentRepo } from '../lifecycle/payment.repo.js'
import type { AccountHolder, AccountSnapshot, StatusReason } from '../lifecycle/payment.schemas.js'
import { mandateRepo } from '../mandates/index.js'
import { applyBankReport } from './bank-report-listener.js'

function ibanOf(snapshot: AccountSnapshot): string {
  return snapshot.identifiers.find((identifier: AccountIdentifier) => identifier.type === 'IBAN')?.number ?? ''
}

/** The instruction a bank needs: the counterparty is the destination of a transfer, the source of a collection. */
export function instructionFor(payment: PaymentsTable): PaymentInstruction {
  const transfer = payment.kind === 'CREDIT_TRANSFER'
  const counterpartyAccount = JSON.parse(transfer ? payment.destination : payment.source) as AccountSnapshot
  const counterpartyHolder = JSON.parse(transfer ? payment.destination_holder : payment.source_holder) as AccountHolder
  const mandate = payment.mandate ? (JSON.parse(payment.mandate) as { mandateReference: string; signatureDate: string }) : undefined
  return {
    paymentId: payment.id,
    paymentType: payment.kind,
    organizationId: payment.organization_id,
    accountId: payment.account_id,
    amount: payment.amount,
    currency: payment.currency,
    executionDate: payment.date,
    counterparty: {
      name: counterpartyHolder.legalName,
      iban: ibanOf(counterpartyAccount),
      ...(counterpartyAccount.bic ? { bic: counterpartyAccount.bic } : {}),
      ...(counterpartyHolder.address ? { address: counterpartyHolder.address } : {}),
    },
    reference: payment.reference,
    endToEndId: endToEndIdOf(payment.id),
    ...(mandate ? { mandateReference: mandate.mandateReference, mandateSignatureDate: mandate.signatureDate } : {}),
    scheme: payment.scheme,
  }
}

/**
 * SEPA sequence type from the mandate's history: RCUR once another collection under it is with the bank or
 * queued for a bank file, FRST before (EPC SDD rulebooks: the first collection of a recurrent series is FRST). Kassa's mandates
 * are all recurrent and have no last collection, so OOFF and FNAL are not derived.
 */
async function sequenceTypeOf(trx: Executor, payment: PaymentsTable): Promise<'FRST' | 'RCUR'> {
  const handedOver = await paymentRepo.otherCollectionIn(trx, payment.mandate_id!, payment.id, [...WITH_BANK, 'PENDING_SUBMISSION'])
  return handedOver ? 'RCUR' : 'FRST'
}

/** ISO 20022 MD01, no valid mandate: the SEPA reason a bank gives a collection without one. */
const MANDATE_CANCELLED: StatusReason = { code: 'MD01', message: 'No valid mandate: the mandate was cancelled before submission' }

/** Why Kassa must not send the payment at all: a direct debit whose mandate was cancelled after the debit was created. */
async function refusal(trx: Executor, payment: PaymentsTable): Promise<StatusReason | undefined> {
  if (payment.mandate_id === null) return undefined
  const mandate = await mandateRepo.find(trx, payment.organization_id, { id: payment.mandate_id })
  return mandate?.status === 'CANCELLED' ? MANDATE_CANCELLED : undefined
}

/**
 * Submits one APPROVED payment to its account's bank, in one transaction: APPROVED →
 * PENDING_SUBMISSION → SENT (with the bank's instruction id), then whatever the bank acknowledged
 * (ACCEPTED, PENDING_AT_BANK, FAILED). A bank reached by files queues it instead: the payment stays in
 * PENDING_SUBMISSION until the file is made (bank-connector.ts). A collection whose mandate was cancelled meanwhile FAILS
 * with MD01 instead of being sent. An account with no bank connection leaves the payment visibly in
 * PENDING_SUBMISSION, with an event saying why (it can still be cancelled there).
 * @returns false when another process is submitting the payment or did, or it was cancelled: skipped, nothing changed.
 */
export async function submitPayment(database: Database, paymentRow: PaymentsTable): Promise<boolean> {
  return database.transaction(async (trx) => {
    const current = await claimApproved(trx, database.dialect, paymentRow)
    if (!current) return false
    const steps = await paymentRepo.steps(trx, [current.id])
    const connector = await bankConnectorFor(database, trx, current.account_id)
    const { row: pending } = await movePayment(
      trx,
      current,
      'PENDING_SUBMISSION',
      {
        originator: SYSTEM_ORIGINATOR,
        message: connector ? 'Scheduled for submission to the bank' : 'No bank connection serves the account yet: the payment waits here',
      },
      steps,
    )
    const reason = await refusal(trx, pending)
    if (reason) {
      await movePayment(trx, pending, 'FAILED', { originator: SYSTEM_ORIGINATOR, statusReason: reason }, steps)
      return true
    }
    if (!connector) return true
    const instruction = instructionFor(pending)
    const acknowledgement = await connector.submit(trx, pending.mandate_id ? { ...instruction, sequenceType: await sequenceTypeOf(trx, pending) } : instruction)
    // Queued for the bank's next file: the payment stays here until the file is made (the connector then reports SENT).
    if (acknowledgement.status === 'PENDING_SUBMISSION') return true
    const { row: sent } = await movePayment(
      trx,
      pending,
      'SENT',
      { originator: SYSTEM_ORIGINATOR, message: `Sent to ${connector.name}`, changes: { connection_instruction_id: acknowledgement.instructionId } },
      steps,
    )
    await applyBankReport(trx, acknowledgement, sent)
    return true
  })
}

/**
 * The payment, locked for its submission, while it is still APPROVED and no other transaction holds it
 * (db/claims.ts): on PostgreSQL the payment worker of another process submitting it, or a cancel, is
 * skipped rather than waited for — the cancel commits and the payment is no longer queued, or rolls back
 * and the next pass takes it. SQLite's one writer lock makes the status check enough.
 */
async function claimApproved(trx: Executor, dialect: Dialect, payment: PaymentsTable): Promise<PaymentsTable | undefined> {
  const query = trx.selectFrom('payments').selectAll().where('id', '=', payment.id).where('status', '=', 'APPROVED')
  return lockedSkippingLocked(query, dialect).executeTakeFirst()
}

/**
 * The submission queue's read: approved payments, oldest first. Its status is a literal, so the partial index
 * payments_approved_queue (migration 0024) serves it: a bound value could be any status.
 */
export function approvedPaymentsQuery(db: Executor, limit: number) {
  return db.selectFrom('payments').selectAll().where('status', '=', sql.lit('APPROVED')).orderBy('updated').orderBy('id').limit(limit)
}

/** Approved payments, oldest first: the submission queue. */
export async function approvedPayments(database: Database, limit: number): Promise<PaymentsTable[]> {
  return approvedPaymentsQuery(database.db, limit).execute()
}
