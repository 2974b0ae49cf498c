import type { Executor } from '../../db/database.js'
import type { PaymentsTable } from '../../db/schema.js'
import { mandateRepo, setMandateStatus } from '../mandates/index.js'
import { movePayment, type TransitionOptions, type Transitioned } from '../lifecycle/payment.js'
import type { ApprovalStepRow } from '../lifecycle/payment.repo.js'

type AttachedTransaction = { type: 'TRANSACTION'; id: string }

/** The payment's attachedTransactions (reference §2.1) with the transaction added once, as stored. */
export function withAttachedTransaction(payment: PaymentsTable, transactionId: string): string {
  const attached = JSON.parse(payment.attached_transactions) as AttachedTransaction[]
  if (attached.some((entry) => entry.id === transactionId)) return payment.attached_transactions
  return JSON.stringify([...attached, { type: 'TRANSACTION', id: transactionId }])
}

/** The payment's attachedTransactions without the transaction, as stored. */
export function withoutAttachedTransaction(payment: PaymentsTable, transactionId: string): string {
  const attached = JSON.parse(payment.attached_transactions) as AttachedTransaction[]
  return JSON.stringify(attached.filter((entry) => entry.id !== transactionId))
}

/**
 * An executed payment matched to its booking: EXECUTED → RECONCILED, whether a bank's report or a person
 * matched it; a direct debit's first collection proves its mandate (CREATED → ACTIVE, event ACTIVATED).
 * @throws ApiError conflict (409) when another writer changed the payment or its mandate first.
 */
export async function reconcilePayment(
  trx: Executor,
  payment: PaymentsTable,
  options: TransitionOptions,
  steps: ApprovalStepRow[],
): Promise<Transitioned> {
  const reconciled = await movePayment(trx, payment, 'RECONCILED', options, steps)
  if (payment.mandate_id) {
    const mandate = await mandateRepo.find(trx, payment.organization_id, { id: payment.mandate_id })
    if (mandate?.status === 'CREATED') await setMandateStatus(trx, mandate, 'ACTIVE', options.originator, 'ACTIVATED')
  }
  return reconciled
}
