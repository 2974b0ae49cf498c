import type { Database, Executor } from '../../db/database.js'
import type { PaymentsTable } from '../../db/schema.js'
import { SYSTEM_ORIGINATOR } from '../../events/index.js'
import { bankConnectorFor, type PaymentInstruction } from '../../financial-data/sandbox/index.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { findPayment, movePayment } from '../lifecycle/payment.js'
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
  const mandate = payment.mandate ? (JSON.parse(payment.mandate) as { mandateReference: string }) : undefined
  return {
    paymentId: payment.id,
    paymentType: payment.kind,
    organizationId: payment.organization_id,
    accountId: payment.account_id,
    amount: payment.amount,
    currency: payment.currency,
    executionDate: payment.date,
    counterparty: { name: counterpartyHolder.legalName, iban: ibanOf(counterpartyAccount), ...(counterpartyAccount.bic ? { bic: counterpartyAccount.bic } : {}) },
    reference: payment.reference,
    // The payment id travels to the booked entry, so the booking can be matched back to it.
    endToEndId: payment.id.replaceAll('-', ''),
    ...(mandate ? { mandateReference: mandate.mandateReference } : {}),
    scheme: payment.scheme,
  }
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
 * (ACCEPTED, PENDING_AT_BANK, FAILED). A collection whose mandate was cancelled meanwhile FAILS
 * with MD01 instead of being sent. An account with no bank connection leaves the payment visibly in
 * PENDING_SUBMISSION, with an event saying why.
 * @returns false when another process got to the payment first.
 */
export async function submitPayment(database: Database, paymentRow: PaymentsTable): Promise<boolean> {
  return database.transaction(async (trx) => {
    const current = await findPayment(trx, paymentRow.organization_id, paymentRow.kind, { id: paymentRow.id })
    if (current.status !== 'APPROVED') return false
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
    const acknowledgement = await connector.submit(trx, instructionFor(pending))
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

/** Approved payments, oldest first: the submission queue. */
export async function approvedPayments(database: Database, limit: number): Promise<PaymentsTable[]> {
  return database.db.selectFrom('payments').selectAll().where('status', '=', 'APPROVED').orderBy('updated').limit(limit).execute()
}
