import type { PaymentsTable, TransactionsTable } from '../../db/schema.js'
import {
  attachTransactable,
  attachedTo,
  detachTransactable,
  findTransaction,
  type ReconciliationOptions,
} from '../../financial-data/transactions/transaction-reconciliation.js'
import { toTransaction } from '../../financial-data/transactions/transaction.repo.js'
import type { Transaction } from '../../financial-data/transactions/transaction.schemas.js'
import { ApiError } from '../../http/errors.js'
import { requirePermission, type Permission } from '../../iam/index.js'
import type { CommandContext, Trx } from '../../shared/command-context.js'
import { lockPayment, movePayment } from '../lifecycle/payment.js'
import { paymentRepo, type PaymentKind } from '../lifecycle/payment.repo.js'
import { pathTo, type PaymentStatus } from '../lifecycle/payment-status.js'
import { reconcilePayment, withAttachedTransaction, withoutAttachedTransaction } from './payment-reconciliation.js'
import { attachedPaymentsTotal } from './reconciliation.repo.js'
import { mismatchOf, whyNotAttachable, whyNotDetachable } from './reconciliation.rules.js'
import type { ReconciliationBody } from './reconciliation.schemas.js'

/** Attaching or detaching changes the payment too: the actor must be allowed to update that kind of payment. */
const UPDATE_PERMISSION: Record<PaymentKind, Permission> = {
  CREDIT_TRANSFER: 'credit_transfers:update',
  DIRECT_DEBIT: 'direct_debits:update',
}

const KIND_NAME: Record<PaymentKind, string> = { CREDIT_TRANSFER: 'credit transfer', DIRECT_DEBIT: 'direct debit' }

/** The payment (locked first: a bank report or a cancel of it waits, or has committed) and the transaction. */
async function pairOf(trx: Trx, ctx: CommandContext, transactionId: string, body: ReconciliationBody) {
  const payment = await lockPayment(trx, ctx.actor.organizationId, body.type, { id: body.id.toLowerCase() })
  const transaction = await findTransaction(trx, ctx.actor.organizationId, transactionId)
  const attached = attachedTo(transaction).some((entry) => entry.type === payment.kind && entry.id === payment.id)
  return { payment, transaction, attached, entry: { type: payment.kind, id: payment.id } }
}

function attachedTransactionIds(payment: PaymentsTable): string[] {
  return (JSON.parse(payment.attached_transactions) as Array<{ id: string }>).map((entry) => entry.id)
}

/** @throws ApiError payment_mismatch (422) naming the payment's field that does not match the booking. */
async function assertMatches(trx: Trx, payment: PaymentsTable, transaction: TransactionsTable): Promise<void> {
  const mismatch = mismatchOf(
    { kind: payment.kind, accountId: payment.account_id, currency: payment.currency, amount: Number(payment.amount) },
    {
      accountId: transaction.account_id,
      currency: transaction.currency,
      amount: Number(transaction.amount),
      attachedTotal: await attachedPaymentsTotal(trx, transaction.organization_id, attachedTo(transaction)),
    },
  )
  if (mismatch) {
    throw new ApiError('payment_mismatch', `The ${KIND_NAME[payment.kind]} does not match the transaction: ${mismatch.error}`, [
      { code: 'payment_mismatch', ...mismatch },
    ])
  }
}

/**
 * Reconciliation by hand (issue 12): a person attaches a payment to the booked transaction that executed it,
 * or detaches one matched wrongly. The payment's moves and events, the transaction's attachedTransactables,
 * reconciliationStatus and event, and the stored idempotent response commit in one transaction.
 */
export function createReconciliationService() {
  return {
    /**
     * Attaches a payment the bank has (SENT, PENDING_AT_BANK, ACCEPTED, EXECUTED) to a booked transaction that
     * matches it (reconciliation.rules.ts): the payment walks to EXECUTED, then RECONCILED with the transaction
     * among its attachedTransactions, each step an event by the person; the transaction's event is RECONCILED
     * or PARTIALLY_RECONCILED. A pair already attached changes nothing.
     * @throws ApiError forbidden (403: without the payment kind's update permission), not_found (404: payment or
     * transaction), conflict (409: the payment's status, or a concurrent change), payment_mismatch (422).
     */
    async attach(ctx: CommandContext, transactionId: string, body: ReconciliationBody): Promise<Transaction> {
      requirePermission(ctx.actor, UPDATE_PERMISSION[body.type])
      return ctx.transaction(async (trx) => {
        const { payment, transaction, attached, entry } = await pairOf(trx, ctx, transactionId, body)
        if (attached) return toTransaction(transaction)
        const why = whyNotAttachable(payment.status as PaymentStatus, attachedTransactionIds(payment))
        if (why) throw new ApiError('conflict', why)
        await assertMatches(trx, payment, transaction)

        const originator = ctx.actor.userId
        const steps = await paymentRepo.steps(trx, [payment.id])
        let current = payment
        for (const status of pathTo(payment.status as PaymentStatus, 'EXECUTED')!) {
          const message = `Transaction ${transaction.id}, attached by hand, books its execution`
          current = (await movePayment(trx, current, status, { originator, message }, steps)).row
        }
        const changes = { attached_transactions: withAttachedTransaction(current, transaction.id) }
        await reconcilePayment(trx, current, { originator, message: `Reconciled by hand to transaction ${transaction.id}`, changes }, steps)
        const attachedByHand = options(originator, `Attached by hand to ${entry.type} ${entry.id}`)
        return attachTransactable(trx, ctx.actor.organizationId, transaction.id, entry, attachedByHand)
      })
    },

    /**
     * Detaches a RECONCILED payment from the transaction it is attached to: the payment goes back to EXECUTED (a
     * correction no bank report can make) without the transaction among its attachedTransactions; the
     * transaction's reconciliationStatus is computed again and its event is DETACHED.
     * @throws ApiError forbidden (403), not_found (404: payment or transaction), conflict (409: not attached to
     * this transaction, not RECONCILED, or a concurrent change).
     */
    async detach(ctx: CommandContext, transactionId: string, body: ReconciliationBody): Promise<Transaction> {
      requirePermission(ctx.actor, UPDATE_PERMISSION[body.type])
      return ctx.transaction(async (trx) => {
        const { payment, transaction, attached, entry } = await pairOf(trx, ctx, transactionId, body)
        const why = whyNotDetachable(payment.status as PaymentStatus, attached, transaction.id)
        if (why) throw new ApiError('conflict', why)

        const originator = ctx.actor.userId
        await movePayment(trx, payment, 'EXECUTED', {
          originator,
          message: `Detached by hand from transaction ${transaction.id}: executed, no longer reconciled`,
          correction: true,
          changes: { attached_transactions: withoutAttachedTransaction(payment, transaction.id) },
        })
        const detachedByHand = options(originator, `Detached by hand from ${entry.type} ${entry.id}`)
        return detachTransactable(trx, ctx.actor.organizationId, transaction.id, entry, detachedByHand)
      })
    },
  }
}

function options(originator: string, message: string): ReconciliationOptions {
  return { originator, message, attachedTotal: attachedPaymentsTotal }
}
