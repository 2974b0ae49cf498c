import type { Executor } from '../../db/database.js'
import type { AccountsTable, PendingTransactionsTable } from '../../db/schema.js'
import { recordEvent, recordFirstEvents, type EventType } from '../../events/index.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { pendingTransactionRepo, toPendingTransaction, type ReportedColumns } from '../pending-transactions/pending-transaction.repo.js'
import { PENDING_TRANSACTIONS } from '../pending-transactions/pending-transaction.service.js'
import { transactionRepo } from '../transactions/transaction.repo.js'
import type { Transaction } from '../transactions/transaction.schemas.js'
import type { BookedEntry } from './booking.service.js'

/**
 * How banks report entries they have not booked yet (reference §2.3 PendingTransaction), beside bookEntries:
 * the sandbox bank a credit transfer it holds, a camt report its PDNG entries. A pending entry is known by the
 * bank's reference of the entry on the account — the one its booking will carry — so
 * - a repeated report changes the pending transaction there is (UPDATED) or nothing, never adds a second;
 * - the booked entry with that reference ends it: BOOKED, naming the transaction (endBookedPending, called by
 *   bookEntries for every booking, whichever way it arrived);
 * - a bank that drops the instruction withdraws it (WITHDRAWN).
 * Each change is an event of the pending transaction, in the caller's transaction.
 */

/** A pending entry: what a booked one has, but its date is provisional (so no dateSource). */
export type PendingEntry = Omit<BookedEntry, 'dateSource'>

type Account = Pick<AccountsTable, 'id' | 'organization_id' | 'currency'>

/** Entry references per lookup: well inside both databases' limits on bound parameters. */
const REFERENCE_CHUNK = 1000

async function pendingWith(trx: Executor, accountId: string, entryReferences: readonly string[]): Promise<PendingTransactionsTable[]> {
  const rows: PendingTransactionsTable[] = []
  for (let start = 0; start < entryReferences.length; start += REFERENCE_CHUNK) {
    rows.push(...(await pendingTransactionRepo.byEntryReferences(trx, accountId, entryReferences.slice(start, start + REFERENCE_CHUNK))))
  }
  return rows
}

function reportedColumns(entry: PendingEntry): ReportedColumns {
  return {
    amount: entry.amount,
    date: entry.date,
    value_date: entry.valueDate,
    description: entry.description,
    reference: entry.reference ?? null,
    end_to_end_id: entry.endToEndId ?? null,
    mandate_reference: entry.mandateReference ?? null,
    counterparty: entry.counterparty ? JSON.stringify(entry.counterparty) : null,
    bank_transaction_code: entry.bankTransactionCode ? JSON.stringify(entry.bankTransactionCode) : null,
    returned: entry.returnReason ? 1 : 0,
    return_reason: entry.returnReason ? JSON.stringify(entry.returnReason) : null,
  }
}

/** The columns a repeated report changes; undefined when it reports the entry as it was. */
function changesOf(row: PendingTransactionsTable, reported: ReportedColumns): Partial<ReportedColumns> | undefined {
  const changed = Object.entries(reported).filter(([column, value]) => String(row[column as keyof ReportedColumns]) !== String(value))
  return changed.length > 0 ? (Object.fromEntries(changed) as Partial<ReportedColumns>) : undefined
}

/** Changes a PENDING one and records the event; nothing when it ended or changed meanwhile. */
async function changePending(
  trx: Executor,
  row: PendingTransactionsTable,
  changes: Parameters<typeof pendingTransactionRepo.change>[3],
  event: { type: EventType; name: string; message?: string },
  originator: string,
): Promise<void> {
  const updated = nowIso()
  if (!(await pendingTransactionRepo.change(trx, row.id, row.version, changes, updated))) return
  const entity = toPendingTransaction({ ...row, ...changes, version: row.version + 1, updated })
  await recordEvent(trx, { organizationId: row.organization_id, entityType: PENDING_TRANSACTIONS, entityId: row.id, ...event, originator, entity })
}

/**
 * Records the entries the bank shows as pending (their entry references distinct). One the account has booked
 * already shows nothing (a report older than the booking, imported after it); one it has pending is updated if the
 * bank reports it otherwise now. Returns how many pending transactions were created.
 */
export async function reportPendingEntries(trx: Executor, account: Account, entries: readonly PendingEntry[], originator: string): Promise<number> {
  const references = entries.map((entry) => entry.entryReference)
  const booked = new Set<string>()
  for (let start = 0; start < references.length; start += REFERENCE_CHUNK) {
    const rows = await transactionRepo.byEntryReferences(trx, account.id, references.slice(start, start + REFERENCE_CHUNK))
    for (const row of rows) booked.add(row.entry_reference)
  }
  const existing = new Map((await pendingWith(trx, account.id, references)).map((row) => [row.entry_reference, row]))
  const now = nowIso()
  const unbooked = entries.filter((entry) => !booked.has(entry.entryReference))
  const rows: PendingTransactionsTable[] = unbooked
    .filter((entry) => !existing.has(entry.entryReference))
    .map((entry) => ({
      id: newId(),
      organization_id: account.organization_id,
      account_id: account.id,
      currency: account.currency,
      ...reportedColumns(entry),
      entry_reference: entry.entryReference,
      status: 'PENDING',
      booked_transaction_id: null,
      version: 1,
      created: now,
      updated: now,
    }))
  const inserted = await pendingTransactionRepo.insertNew(trx, rows)
  await recordFirstEvents(
    trx,
    account.organization_id,
    PENDING_TRANSACTIONS,
    inserted.map((row) => ({ entityId: row.id, type: 'CREATED', name: 'CREATED', originator, entity: toPendingTransaction(row) })),
  )
  for (const entry of unbooked) {
    const row = existing.get(entry.entryReference)
    const changes = row?.status === 'PENDING' ? changesOf(row, reportedColumns(entry)) : undefined
    if (row && changes) await changePending(trx, row, changes, { type: 'UPDATED', name: 'UPDATED' }, originator)
  }
  return inserted.length
}

/** Ends the account's pending transactions that these new bookings book: BOOKED, naming the transaction. */
export async function endBookedPending(trx: Executor, account: Pick<Account, 'id'>, booked: readonly Transaction[], originator: string): Promise<void> {
  const byReference = new Map(booked.map((transaction) => [transaction.references.entryReference, transaction]))
  for (const row of await pendingWith(trx, account.id, [...byReference.keys()])) {
    if (row.status !== 'PENDING') continue
    const transaction = byReference.get(row.entry_reference)!
    await changePending(trx, row, { status: 'BOOKED', booked_transaction_id: transaction.id }, { type: 'UPDATED', name: 'BOOKED' }, originator)
  }
}

/** Withdraws the account's pending transactions of these entry references: the bank dropped them unbooked. */
export async function withdrawPendingEntries(trx: Executor, account: Pick<Account, 'id'>, entryReferences: readonly string[], originator: string, message: string): Promise<void> {
  for (const row of await pendingWith(trx, account.id, entryReferences)) {
    if (row.status === 'PENDING') await changePending(trx, row, { status: 'WITHDRAWN' }, { type: 'UPDATED', name: 'WITHDRAWN', message }, originator)
  }
}
