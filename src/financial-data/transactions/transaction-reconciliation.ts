import type { Executor } from '../../db/database.js'
import { recordEvent } from '../../events/index.js'
import { ApiError } from '../../http/errors.js'
import { nowIso } from '../../shared/clock.js'
import { transactionRepo, toTransaction } from './transaction.repo.js'
import type { AttachedTransactable, Transaction } from './transaction.schemas.js'
import { TRANSACTIONS } from './transaction.service.js'

/**
 * Marks a booked transaction as reconciled to a payment (reference §2.3: attachedTransactables),
 * in the caller's transaction, with its RECONCILED event.
 * @throws ApiError conflict (409) when the transaction changed meanwhile.
 */
export async function attachTransactable(
  trx: Executor,
  organizationId: string,
  transactionId: string,
  transactable: AttachedTransactable,
  originator: string,
): Promise<Transaction> {
  const row = await transactionRepo.find(trx, organizationId, transactionId)
  if (!row) throw new ApiError('not_found', `No transaction ${transactionId}`)
  const attached = JSON.parse(row.attached_transactables) as AttachedTransactable[]
  if (attached.some((existing) => existing.type === transactable.type && existing.id === transactable.id)) return toTransaction(row)
  const updated = nowIso()
  const changes = {
    attached_transactables: JSON.stringify([...attached, transactable]),
    reconciliation_status: 'RECONCILED' as const,
    updated,
    version: row.version + 1,
  }
  const result = await trx
    .updateTable('transactions')
    .set(changes)
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) throw new ApiError('conflict', 'The transaction changed while it was being reconciled')
  const transaction = toTransaction({ ...row, ...changes })
  await recordEvent(trx, {
    organizationId,
    entityType: TRANSACTIONS,
    entityId: row.id,
    type: 'UPDATED',
    name: 'RECONCILED',
    originator,
    message: `Reconciled to ${transactable.type} ${transactable.id}`,
    entity: transaction,
  })
  return transaction
}
