import type { Database } from '../../db/database.js'
import type { PaymentsTable } from '../../db/schema.js'
import { SYSTEM_ORIGINATOR } from '../../events/index.js'
import { bankConnectorFor, type PaymentInstruction } from '../../financial-data/sandbox/index.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { findPayment, transitionPayment } from '../lifecycle/payment.js'
import type { AccountHolder, AccountSnapshot } from '../lifecycle/payment.schemas.js'
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

/**
 * Submits one APPROVED payment to its account's bank, in one transaction: APPROVED →
 * PENDING_SUBMISSION → SENT (with the bank's instruction id), then whatever the bank acknowledged
 * (ACCEPTED, PENDING_AT_BANK, FAILED). An account with no bank connection leaves the payment
 * visibly in PENDING_SUBMISSION, with an event saying why.
 * @returns false when another process got to the payment first.
 */
export async function submitPayment(database: Database, paymentRow: PaymentsTable): Promise<boolean> {
  return database.transaction(async (trx) => {
    const current = await findPayment(trx, paymentRow.organization_id, paymentRow.kind, { id: paymentRow.id })
    if (current.status !== 'APPROVED') return false
    await transitionPayment(trx, current, 'PENDING_SUBMISSION', { originator: SYSTEM_ORIGINATOR, message: 'Scheduled for submission to the bank' })
    const pending = await findPayment(trx, current.organization_id, current.kind, { id: current.id })
    const connector = await bankConnectorFor(database, trx, current.account_id)
    if (!connector) return true
    const acknowledgement = await connector.submit(trx, instructionFor(pending))
    await transitionPayment(trx, pending, 'SENT', {
      originator: SYSTEM_ORIGINATOR,
      message: `Sent to ${connector.name}`,
      changes: { connection_instruction_id: acknowledgement.instructionId },
    })
    await applyBankReport(trx, acknowledgement)
    return true
  })
}

/** Approved payments, oldest first: the submission queue. */
export async function approvedPayments(database: Database, limit: number): Promise<PaymentsTable[]> {
  return database.db.selectFrom('payments').selectAll().where('status', '=', 'APPROVED').orderBy('updated').limit(limit).execute()
}
