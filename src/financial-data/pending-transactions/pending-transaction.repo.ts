import type { Executor } from '../../db/database.js'
import { insertNewRows } from '../../db/insert-new.js'
import type { PendingTransactionsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import { toAmount } from '../../shared/money.js'
import { toCounterpartyDetails } from '../transactions/transaction.repo.js'
import type { BankTransactionCode, ReturnReason, TransactionCounterparty } from '../transactions/transaction.schemas.js'
import type { PendingTransaction, PendingTransactionStatus } from './pending-transaction.schemas.js'

export function toPendingTransaction(row: PendingTransactionsTable): PendingTransaction {
  return {
    id: row.id,
    organizationId: row.organization_id,
    accountId: row.account_id,
    amount: toAmount(row.amount, row.currency),
    date: row.date,
    valueDate: row.value_date,
    description: row.description,
    ...(row.reference !== null ? { reference: row.reference } : {}),
    references: {
      ...(row.end_to_end_id !== null ? { endToEndId: row.end_to_end_id } : {}),
      ...(row.mandate_reference !== null ? { mandateReference: row.mandate_reference } : {}),
      entryReference: row.entry_reference,
    },
    ...(row.counterparty !== null ? { counterparty: toCounterpartyDetails(JSON.parse(row.counterparty) as TransactionCounterparty) } : {}),
    ...(row.bank_transaction_code !== null ? { bankTransactionCode: JSON.parse(row.bank_transaction_code) as BankTransactionCode } : {}),
    returned: row.returned === 1,
    ...(row.return_reason !== null ? { returnReason: JSON.parse(row.return_reason) as ReturnReason } : {}),
    status: row.status,
    ...(row.booked_transaction_id !== null ? { bookedTransactionId: row.booked_transaction_id } : {}),
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

/** The columns a bank's report of the entry sets: what a repeated report may change. */
export type ReportedColumns = Pick<
  PendingTransactionsTable,
  | 'amount'
  | 'date'
  | 'value_date'
  | 'description'
  | 'reference'
  | 'end_to_end_id'
  | 'mandate_reference'
  | 'counterparty'
  | 'bank_transaction_code'
  | 'returned'
  | 'return_reason'
>

export interface PendingTransactionFilters {
  accountId?: string
  currency?: string
  status: PendingTransactionStatus
  dateFrom?: string
  dateTo?: string
}


export const pendingTransactionRepo = {
  /** Inserts the rows whose entry reference the account has no pending transaction with; returns those inserted. */
  insertNew(trx: Executor, rows: PendingTransactionsTable[]): Promise<PendingTransactionsTable[]> {
    return insertNewRows(rows, (chunk) =>
      trx.insertInto('pending_transactions').values(chunk).onConflict((conflict) => conflict.columns(['account_id', 'entry_reference']).doNothing()).returning('id').execute(),
    )
  },

  /** The account's pending transactions (of any status) with these entry references. */
  async byEntryReferences(db: Executor, accountId: string, entryReferences: readonly string[]): Promise<PendingTransactionsTable[]> {
    if (entryReferences.length === 0) return []
    return db.selectFrom('pending_transactions').selectAll().where('account_id', '=', accountId).where('entry_reference', 'in', entryReferences).execute()
  },

  async find(db: Executor, organizationId: string, id: string): Promise<PendingTransactionsTable | undefined> {
    return db.selectFrom('pending_transactions').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** Newest first, by provisional date then id; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: PendingTransactionFilters, page: PageRequest): Promise<PendingTransactionsTable[]> {
    let query = db.selectFrom('pending_transactions').selectAll().where('organization_id', '=', organizationId).where('status', '=', filters.status)
    if (filters.accountId) query = query.where('account_id', '=', filters.accountId)
    if (filters.currency) query = query.where('currency', '=', filters.currency)
    if (filters.dateFrom) query = query.where('date', '>=', filters.dateFrom)
    if (filters.dateTo) query = query.where('date', '<=', filters.dateTo)
    if (page.after) query = query.where(keysetAfter(['date', 'id'], 'desc', page.after))
    return query.orderBy('date', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute()
  },

  /**
   * Changes a PENDING one at `expectedVersion` (a repeated report, or its end) and moves it to the next version;
   * false when it is no longer that: ended or changed by someone else meanwhile.
   */
  async change(
    trx: Executor,
    id: string,
    expectedVersion: number,
    changes: Partial<ReportedColumns> & Partial<Pick<PendingTransactionsTable, 'status' | 'booked_transaction_id'>>,
    updated: string,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('pending_transactions')
      .set({ ...changes, updated, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .where('status', '=', 'PENDING')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },
}
