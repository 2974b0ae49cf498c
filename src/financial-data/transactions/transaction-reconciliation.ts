import type { Executor } from '../../db/database.js'
import type { TransactionsTable } from '../../db/schema.js'
import { recordEvent } from '../../events/index.js'
import { ApiError } from '../../http/errors.js'
import { nowIso } from '../../shared/clock.js'
import { requireLive } from '../../shared/lookup.js'
import { transactionRepo, toTransaction } from './transaction.repo.js'
import type { AttachedTransactable, Transaction } from './transaction.schemas.js'
import { TRANSACTIONS } from './transaction.service.js'

type ReconciliationStatus = TransactionsTable['reconciliation_status']

/**
 * What the transactables attached to a transaction add up to, in minor units without sign. Their amounts are
 * their own domain's (a payment's, the payments domain's), which financial-data does not import: the caller
 * that attaches passes this in.
 */
export type AttachedTotal = (trx: Executor, organizationId: string, attached: readonly AttachedTransactable[]) => Promise<number>

/** How a caller attaches or detaches: who, how the attached amounts add up, and the event's message. */
export interface ReconciliationOptions {
  originator: string
  /** Without it nothing attached is known to settle an amount: what is attached leaves the transaction PARTIALLY_RECONCILED. */
  attachedTotal?: AttachedTotal
  message?: string
}

/**
 * reference §2.3 reconciliationStatus: RECONCILED when what is attached adds up to the booked amount (without
 * sign), PARTIALLY_RECONCILED when something is attached but less — a batch booking matched payment by payment,
 * a booking with the bank's fees in it — and NOT_RECONCILED when nothing is.
 */
export function reconciliationStatusOf(amount: number, attachedCount: number, attachedTotal: number): ReconciliationStatus {
  if (attachedCount === 0) return 'NOT_RECONCILED'
  return attachedTotal >= Math.abs(amount) ? 'RECONCILED' : 'PARTIALLY_RECONCILED'
}

/** The transaction's row, for a caller that reconciles it. @throws ApiError not_found (404) — also for another organization's. */
export async function findTransaction(db: Executor, organizationId: string, id: string): Promise<TransactionsTable> {
  return requireLive(await transactionRepo.find(db, organizationId, id), 'transaction', { id })
}

export function attachedTo(row: TransactionsTable): AttachedTransactable[] {
  return JSON.parse(row.attached_transactables) as AttachedTransactable[]
}

function isSame(a: AttachedTransactable, b: AttachedTransactable): boolean {
  return a.type === b.type && a.id === b.id
}

/**
 * Attaches a transactable (a payment) to a booked transaction (reference §2.3: attachedTransactables), in the
 * caller's transaction, and records the event named after the reconciliationStatus it now has (RECONCILED or
 * PARTIALLY_RECONCILED). One already attached changes nothing. `options` may be just the originator (nothing
 * attached then counts as settling an amount).
 * @throws ApiError not_found (404), conflict (409) when the transaction changed meanwhile.
 */
export async function attachTransactable(
  trx: Executor,
  organizationId: string,
  transactionId: string,
  transactable: AttachedTransactable,
  options: ReconciliationOptions | string,
): Promise<Transaction> {
  const row = await findTransaction(trx, organizationId, transactionId)
  const attached = attachedTo(row)
  if (attached.some((existing) => isSame(existing, transactable))) return toTransaction(row)
  return storeAttached(trx, row, [...attached, transactable], optionsOf(options), {
    message: `Reconciled to ${transactable.type} ${transactable.id}`,
  })
}

/**
 * Takes an attached transactable off a transaction, in the caller's transaction; its reconciliationStatus is
 * computed again and the event is DETACHED.
 * @throws ApiError not_found (404), conflict (409) when it is not attached or the transaction changed meanwhile.
 */
export async function detachTransactable(
  trx: Executor,
  organizationId: string,
  transactionId: string,
  transactable: AttachedTransactable,
  options: ReconciliationOptions,
): Promise<Transaction> {
  const row = await findTransaction(trx, organizationId, transactionId)
  const attached = attachedTo(row)
  if (!attached.some((existing) => isSame(existing, transactable))) {
    throw new ApiError('conflict', `The ${transactable.type} ${transactable.id} is not attached to transaction ${row.id}`)
  }
  const remaining = attached.filter((existing) => !isSame(existing, transactable))
  return storeAttached(trx, row, remaining, options, { name: 'DETACHED', message: `Detached from ${transactable.type} ${transactable.id}` })
}

function optionsOf(options: ReconciliationOptions | string): ReconciliationOptions {
  return typeof options === 'string' ? { originator: options } : options
}

/** Writes the new attachedTransactables and their status if the row is still the one read, with the event. */
async function storeAttached(
  trx: Executor,
  row: TransactionsTable,
  attached: AttachedTransactable[],
  options: ReconciliationOptions,
  event: { name?: string; message: string },
): Promise<Transaction> {
  const total = attached.length > 0 && options.attachedTotal ? await options.attachedTotal(trx, row.organization_id, attached) : 0
  const changes = {
    attached_transactables: JSON.stringify(attached),
    reconciliation_status: reconciliationStatusOf(row.amount, attached.length, total),
    updated: nowIso(),
    version: row.version + 1,
  }
  const result = await trx
    .updateTable('transactions')
    .set(changes)
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) throw new ApiError('conflict', 'The transaction changed while it was being reconciled; try again')
  const transaction = toTransaction({ ...row, ...changes })
  await recordEvent(trx, {
    organizationId: row.organization_id,
    entityType: TRANSACTIONS,
    entityId: row.id,
    type: 'UPDATED',
    name: event.name ?? changes.reconciliation_status,
    originator: options.originator,
    message: options.message ?? event.message,
    entity: transaction,
  })
  return transaction
}
