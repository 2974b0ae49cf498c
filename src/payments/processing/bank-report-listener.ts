import type { Executor } from '../../db/database.js'
import type { PaymentApprovalStepsTable, PaymentsTable } from '../../db/schema.js'
import { BANK_ORIGINATOR, type AppliedReport, type PaymentStatusListener, type PaymentStatusReport } from '../../financial-data/sandbox/index.js'
import { attachTransactable } from '../../financial-data/transactions/transaction-reconciliation.js'
import { mandateRepo, setMandateStatus } from '../mandates/index.js'
import { lockPayment, movePayment, type TransitionOptions } from '../lifecycle/payment.js'
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
    const bookedEntry = final && report.transaction ? [{ type: 'TRANSACTION' as const, id: report.transaction.id }] : []
    const options: TransitionOptions = {
      originator: BANK_ORIGINATOR,
      ...(final && reason ? { statusReason: reason } : {}),
      ...(final && report.message ? { message: report.message } : {}),
      ...(bookedEntry.length > 0
        ? { changes: { attached_transactions: JSON.stringify([...JSON.parse(payment.attached_transactions), ...bookedEntry]) } }
        : {}),
      // A bank reached by files reports SENT when it makes the file: the instruction id is the file's message id.
      ...(status === 'SENT' ? { changes: { connection_instruction_id: report.instructionId } } : {}),
    }
    payment = (await movePayment(trx, payment, status, options, steps)).row
  }
  if (report.transaction) {
    await attachTransactable(trx, report.organizationId, report.transaction.id, { type: report.paymentType, id: payment.id }, BANK_ORIGINATOR)
  }
  if (report.status === 'EXECUTED' && report.transaction) return { from, to: await reconcile(trx, payment, steps) }
  return { from, to: payment.status }
}

/** The execution is booked and matched: EXECUTED → RECONCILED; a first collection proves its mandate. @returns RECONCILED. */
async function reconcile(trx: Executor, payment: PaymentsTable, steps: PaymentApprovalStepsTable[]): Promise<PaymentStatus> {
  await movePayment(trx, payment, 'RECONCILED', { originator: BANK_ORIGINATOR, message: 'Matched to the booked transaction' }, steps)
  if (payment.mandate_id) {
    const mandate = await mandateRepo.find(trx, payment.organization_id, { id: payment.mandate_id })
    if (mandate?.status === 'CREATED') await setMandateStatus(trx, mandate, 'ACTIVE', BANK_ORIGINATOR, 'ACTIVATED')
  }
  return 'RECONCILED'
}

export const bankReportListener: PaymentStatusListener = { onPaymentStatus: applyBankReport }
