import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { errorResponses } from '../../http/route-schemas.js'
import { transactionId } from '../../financial-data/transactions/transaction.routes.js'
import { Transaction } from '../../financial-data/transactions/transaction.schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createReconciliationService } from './reconciliation.service.js'
import { ReconciliationBody } from './reconciliation.schemas.js'

/**
 * Reconciliation by hand (issue 12). The URLs are the transaction's custom methods, under financial-data, as the
 * reference puts attachedTransactables on the transaction (§2.3); the code is the payments domain's, because
 * attaching moves the payment through its lifecycle too, and financial-data does not import payments (payments
 * imports financial-data).
 */
const tags = ['Transactions']
const BASE = '/financial-data/v2/transactions'

const RULES =
  'Needs transactions:update and the update permission of the payment kind (credit_transfers:update or ' +
  'direct_debits:update), else 403. The transaction is addressed by its Kassa id, the payment by type and id.'

export function reconciliationRoutes(app: ApiApp): void {
  const service = createReconciliationService()

  app.post(
    `${BASE}/:id(^.+)::attach`,
    {
      config: { permission: 'transactions:update' },
      schema: {
        tags,
        summary: 'Attach a payment to the booked transaction that executed it (reconcile by hand)',
        description:
          `${RULES} The payment must be with the bank and not final — SENT, PENDING_AT_BANK, ACCEPTED or EXECUTED — else ` +
          '409 saying why (never sent, final, returned, or already RECONCILED to another transaction). It must match: the ' +
          "transaction is on the payment's own account (the source of a credit transfer, the destination of a direct " +
          "debit) in the payment's currency; a credit transfer matches money out (a negative amount), a direct debit " +
          "money in; and the payments attached add up to no more than the transaction's amount — else 422 " +
          'payment_mismatch naming the field. The payment then walks to EXECUTED and RECONCILED (each step an event by ' +
          'the caller) with the transaction among its attachedTransactions. The transaction is answered with the payment ' +
          'in its attachedTransactables and its reconciliationStatus computed again: RECONCILED when the attached ' +
          'payments add up to its amount, PARTIALLY_RECONCILED when they add up to less (a batch booking matched payment ' +
          'by payment, a booking with fees); its event is named after that status. Attaching a pair already attached ' +
          'changes nothing and answers 200.',
        params: IdParams,
        body: ReconciliationBody,
        response: { 200: Transaction, ...errorResponses(400, 403, 404, 409, 415, 422, 425) },
      },
    },
    async (request, reply) => service.attach(commandContext(request, reply, 200), transactionId(request.params.id), request.body),
  )

  app.post(
    `${BASE}/:id(^.+)::detach`,
    {
      config: { permission: 'transactions:update' },
      schema: {
        tags,
        summary: 'Detach a payment reconciled to the transaction by mistake',
        description:
          `${RULES} Only a RECONCILED payment attached to this transaction is detached: it goes back to EXECUTED (an ` +
          'event by the caller; a correction no bank report can make) without the transaction among its ' +
          'attachedTransactions. The transaction is answered without the payment in its attachedTransactables and its ' +
          'reconciliationStatus computed again (NOT_RECONCILED when nothing is left attached); its event is DETACHED. ' +
          '409 when the payment is not attached to this transaction, or is not RECONCILED (a RETURNED payment keeps ' +
          'the bookings the bank reported).',
        params: IdParams,
        body: ReconciliationBody,
        response: { 200: Transaction, ...errorResponses(400, 403, 404, 409, 415, 422, 425) },
      },
    },
    async (request, reply) => service.detach(commandContext(request, reply, 200), transactionId(request.params.id), request.body),
  )
}
