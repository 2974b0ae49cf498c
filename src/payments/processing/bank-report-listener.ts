import type { Executor } from '../../db/database.js'
import type { PaymentsTable } from '../../db/schema.js'
import { BANK_ORIGINATOR, type AppliedReport, type PaymentStatusListener, type PaymentStatusReport } from '../../financial-data/sandbox/index.js'
import { attachTransactable } from '../../financial-data/transactions/transaction-reconciliation.js'
import { lockPayment, movePayment, type TransitionOptions } from '../lifecycle/payment.js'
import { paymentRepo } from '../lifecycle/payment.repo.js'
import type { StatusReason } from '../lifecycle/payment.schemas.js'
import { pathTo, type PaymentStatus } from '../lifecycle/payment-status.js'
import { attachedPaymentsTotal, reconcilePayment, withAttachedTransaction } from '../reconciliation/index.js'

/**
 * Applies what a bank reports to the payment, in the bank's transaction: the payment walks the
 * lifecycle to the reported status (recording every step it passes), a booked execution is
 * reconciled to the payment, and a direct debit's first execution activates its mandate.
 * Reports that are stale or impossible for the payment's status (a late duplicate) change nothing; so does
 * one that would take a RECONCILED payment back to EXECUTED (only a person detaching it by hand does that).
 * One booking may settle several payments (a batch): each report names the same `transaction`, which is
 * PARTIALLY_RECONCILED until the payments attached add up to its amount, then RECONCILED.
 * `current` is the payment's row when the caller holds it (the submitter, after SENT).
 */
export async function applyBankReport(trx: Executor, report: PaymentStatusReport, current?: PaymentsTable): Promise<AppliedReport> {
  // Locked before it is read: a cancel of a payment queued for a bank file commits first (and this sees CANCELLED) or waits.
  let payment = current ?? (await lockPayment(trx, report.organizationId, report.paymentType, { id: report.paymentId }))
  const from = payment.status
  const path = pathTo(payment.status as PaymentStatus, report.status as PaymentStatus)
  if (!path) return { from, to: from }
  const steps = await paymentRepo.steps(trx, [payment.id])
  const reason: StatusReason | undefined = report.reason ? { code: report.reason.code, message: report.reason.description } : undefined
  for (const status of path) {
    const final = status === report.status
    const options: TransitionOptions = {
      originator: BANK_ORIGINATOR,
      ...(final && reason ? { statusReason: reason } : {}),
      ...(final && report.message ? { message: report.message } : {}),
      ...(final && report.transaction ? { changes: { attached_transactions: withAttachedTransaction(payment, report.transaction.id) } } : {}),
      // A bank reached by files reports SENT when it makes the file: the instruction id is the file's message id.
      ...(status === 'SENT' ? { changes: { connection_instruction_id: report.instructionId } } : {}),
    }
    payment = (await movePayment(trx, payment, status, options, steps)).row
  }
  if (report.transaction) {
    await attachTransactable(trx, report.organizationId, report.transaction.id, { type: report.paymentType, id: payment.id }, {
      originator: BANK_ORIGINATOR,
      attachedTotal: attachedPaymentsTotal,
    })
  }
  if (report.status === 'EXECUTED' && report.transaction) {
    const reconciled = await reconcilePayment(trx, payment, { originator: BANK_ORIGINATOR, message: 'Matched to the booked transaction' }, steps)
    return { from, to: reconciled.row.status }
  }
  return { from, to: payment.status }
}

export const bankReportListener: PaymentStatusListener = { onPaymentStatus: applyBankReport }
