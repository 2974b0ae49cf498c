import type { Executor } from '../../db/database.js'
import type { PaymentApprovalStepsTable, PaymentsTable } from '../../db/schema.js'
import { BANK_ORIGINATOR, type PaymentStatusListener, type PaymentStatusReport } from '../../financial-data/sandbox/index.js'
import { attachTransactable } from '../../financial-data/transactions/transaction-reconciliation.js'
import { mandateRepo, setMandateStatus } from '../mandates/index.js'
import { findPayment, movePayment, type TransitionOptions } from '../lifecycle/payment.js'
import { paymentRepo } from '../lifecycle/payment.repo.js'
import type { StatusReason } from '../lifecycle/payment.schemas.js'
import { pathTo, type PaymentStatus } from '../lifecycle/payment-status.js'

/**
 * Applies what a bank reports to the payment, in the bank's transaction: the payment walks the
 * lifecycle to the reported status (recording every step it passes), a booked execution is
 * reconciled to the payment, and a direct debit's first execution activates its mandate.
 * Reports that are stale or impossible for the payment's status (a late duplicate) change nothing.
 * `current` is the payment's row when the caller holds it (the submitter, after SENT).
 */
export async function applyBankReport(trx: Executor, report: PaymentStatusReport, current?: PaymentsTable): Promise<void> {
  if (report.status === 'SENT') return
  let payment = current ?? (await findPayment(trx, report.organizationId, report.paymentType, { id: report.paymentId }))
  const path = pathTo(payment.status as PaymentStatus, report.status)
  if (!path) return
  const steps = await paymentRepo.steps(trx, [payment.id])
  const reason: StatusReason | undefined = report.reason ? { code: report.reason.code, message: report.reason.description } : undefined
  for (const status of path) {
    const final = status === report.status
    const bookedEntry = final && report.transaction ? [{ type: 'TRANSACTION' as const, id: report.transaction.id }] : []
    const options: TransitionOptions = {
      originator: BANK_ORIGINATOR,
      ...(final && reason ? { statusReason: reason } : {}),
      ...(bookedEntry.length > 0
        ? { changes: { attached_transactions: JSON.stringify([...JSON.parse(payment.attached_transactions), ...bookedEntry]) } }
        : {}),
    }
    payment = (await movePayment(trx, payment, status, options, steps)).row
  }
  if (report.transaction) {
    await attachTransactable(trx, report.organizationId, report.transaction.id, { type: report.paymentType, id: payment.id }, BANK_ORIGINATOR)
  }
  if (report.status === 'EXECUTED' && report.transaction) await reconcile(trx, payment, steps)
}

/** The execution is booked and matched: EXECUTED → RECONCILED; a first collection proves its mandate. */
async function reconcile(trx: Executor, payment: PaymentsTable, steps: PaymentApprovalStepsTable[]): Promise<void> {
  await movePayment(trx, payment, 'RECONCILED', { originator: BANK_ORIGINATOR, message: 'Matched to the booked transaction' }, steps)
  if (payment.mandate_id) {
    const mandate = await mandateRepo.find(trx, payment.organization_id, { id: payment.mandate_id })
    if (mandate?.status === 'CREATED') await setMandateStatus(trx, mandate, 'ACTIVE', BANK_ORIGINATOR, 'ACTIVATED')
  }
}

export const bankReportListener: PaymentStatusListener = { onPaymentStatus: applyBankReport }
