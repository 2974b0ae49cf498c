import type { Executor } from '../../db/database.js'
import { insertNewRows } from '../../db/insert-new.js'
import type { TransactionsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import { routingByBic } from '../../shared/account-identifiers.js'
import { toAmount } from '../../shared/money.js'
import type { AttachedTransactable, BankTransactionCode, CounterpartyDetails, ReturnReason, Transaction, TransactionCounterparty } from './transaction.schemas.js'

/** The stored other party as served (reference §2.1 CounterpartyDetails): its account with `rawIdentifier` and `routing`. */
export function toCounterpartyDetails(stored: TransactionCounterparty): CounterpartyDetails {
  const { account, ...party } = stored
  if (!account) return party
  const { rawIdentifier, ...rest } = account
  return {
    ...party,
    account: {
      ...rest,
      routing: routingByBic(account.bic),
      rawIdentifier: rawIdentifier ?? account.identifiers[0]?.number ?? '',
    },
  }
}

export function toTransaction(row: TransactionsTable): Transaction {
  return {
    id: row.id,
    organizationId: row.organization_id,
    accountId: row.account_id,
    amount: toAmount(row.amount, row.currency),
    date: row.date,
    valueDate: row.value_date,
    ...(row.date_source !== null ? { dateSource: row.date_source } : {}),
    description: row.description,
    ...(row.reference !== null ? { reference: row.reference } : {}),
    references: {
      ...(row.end_to_end_id !== null ? { endToEndId: row.end_to_end_id } : {}),
      ...(row.mandate_reference !== null ? { mandateReference: row.mandate_reference } : {}),
      entryReference: row.entry_reference,
    },
    ...(row.counterparty !== null ? { counterparty: toCounterpartyDetails(JSON.parse(row.counterparty) as TransactionCounterparty) } : {}),
    ...(row.bank_transaction_code !== null
      ? { bankTransactionCode: JSON.parse(row.bank_transaction_code) as BankTransactionCode }
      : {}),
    reconciliationStatus: row.reconciliation_status,
    attachedTransactables: JSON.parse(row.attached_transactables) as AttachedTransactable[],
    returned: row.returned === 1,
    ...(row.return_reason !== null ? { returnReason: JSON.parse(row.return_reason) as ReturnReason } : {}),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

const text = JSON.stringify

/** `,"name":json` for an optional field, or nothing when it is absent (null in its column). */
function optionalField(name: string, json: string | null): string {
  return json === null ? '' : `,"${name}":${json}`
}

const COUNTERPARTIES_REMEMBERED = 1_000
const servedCounterparties = new Map<string, string>()

/**
 * A stored counterparty's JSON as served (toCounterpartyDetails). A pure function of the stored text, remembered for
 * the texts seen last: a page names the same few counterparties again and again, and parsing and serializing one
 * cost more than the rest of its row.
 */
function counterpartyJson(stored: string): string {
  let served = servedCounterparties.get(stored)
  if (served === undefined) {
    served = text(toCounterpartyDetails(JSON.parse(stored) as TransactionCounterparty))
    if (servedCounterparties.size >= COUNTERPARTIES_REMEMBERED) servedCounterparties.delete(servedCounterparties.keys().next().value!)
    servedCounterparties.set(stored, served)
  }
  return served
}

/**
 * toTransaction's object as the JSON text it is served as, for pages (issue 14: the transactions page parsed every
 * row's stored JSON and serialized it again). The columns that hold JSON in the API's shape — bank transaction code,
 * attached transactables, return reason, metadata — are spliced in as stored (they were written in that shape, the
 * client's metadata validated by the schema); only the counterparty is reshaped (counterpartyJson). Fields in the
 * schema's order; transaction-json.test.ts holds every item equal to GET by id's for every kind of row.
 */
export function transactionJson(row: TransactionsTable): string {
  const references =
    (row.end_to_end_id === null ? '' : `"endToEndId":${text(row.end_to_end_id)},`) +
    (row.mandate_reference === null ? '' : `"mandateReference":${text(row.mandate_reference)},`) +
    `"entryReference":${text(row.entry_reference)}`
  return (
    `{"id":${text(row.id)},"organizationId":${text(row.organization_id)},"accountId":${text(row.account_id)}` +
    `,"amount":${text(toAmount(row.amount, row.currency))},"date":${text(row.date)},"valueDate":${text(row.value_date)}` +
    optionalField('dateSource', row.date_source === null ? null : text(row.date_source)) +
    `,"description":${text(row.description)}` +
    optionalField('reference', row.reference === null ? null : text(row.reference)) +
    `,"references":{${references}}` +
    optionalField('counterparty', row.counterparty === null ? null : counterpartyJson(row.counterparty)) +
    optionalField('bankTransactionCode', row.bank_transaction_code) +
    `,"reconciliationStatus":${text(row.reconciliation_status)},"attachedTransactables":${row.attached_transactables}` +
    `,"returned":${text(row.returned === 1)}` +
    optionalField('returnReason', row.return_reason) +
    `,"metadata":${row.metadata},"version":${text(row.version)},"etag":${text(etagOf(row.version))}` +
    `,"created":${text(row.created)},"updated":${text(row.updated)}}`
  )
}

export interface TransactionFilters {
  accountId?: string
  currency?: string
  reconciliationStatus?: TransactionsTable['reconciliation_status']
  dateFrom?: string
  dateTo?: string
  amountFrom?: number
  amountTo?: number
}

export const transactionRepo = {
  /** Inserts entries the account does not have yet (by entry reference); returns the rows inserted, in the order given. */
  insertNew(trx: Executor, rows: TransactionsTable[]): Promise<TransactionsTable[]> {
    return insertNewRows(rows, (chunk) =>
      trx.insertInto('transactions').values(chunk).onConflict((conflict) => conflict.columns(['account_id', 'entry_reference']).doNothing()).returning('id').execute(),
    )
  },

  /** The account's transactions with these entry references (those it has of them). */
  async byEntryReferences(db: Executor, accountId: string, entryReferences: readonly string[]): Promise<TransactionsTable[]> {
    if (entryReferences.length === 0) return []
    return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('entry_reference', 'in', entryReferences).execute()
  },

  async find(db: Executor, organizationId: string, id: string): Promise<TransactionsTable | undefined> {
    return db.selectFrom('transactions').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** Newest first, by booking date then id; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: TransactionFilters, page: PageRequest): Promise<TransactionsTable[]> {
    let query = db.selectFrom('transactions').selectAll().where('organization_id', '=', organizationId)
    if (filters.accountId) query = query.where('account_id', '=', filters.accountId)
    if (filters.currency) query = query.where('currency', '=', filters.currency)
    if (filters.reconciliationStatus) query = query.where('reconciliation_status', '=', filters.reconciliationStatus)
    if (filters.dateFrom) query = query.where('date', '>=', filters.dateFrom)
    if (filters.dateTo) query = query.where('date', '<=', filters.dateTo)
    if (filters.amountFrom !== undefined) query = query.where('amount', '>=', filters.amountFrom)
    if (filters.amountTo !== undefined) query = query.where('amount', '<=', filters.amountTo)
    if (page.after) query = query.where(keysetAfter(['date', 'id'], 'desc', page.after))
    return query.orderBy('date', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute()
  },

  async updateMetadata(trx: Executor, id: string, expectedVersion: number, metadata: string, updated: string): Promise<boolean> {
    const result = await trx
      .updateTable('transactions')
      .set({ metadata, updated, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Sum of booked amounts on an account up to and including `date`: the ledger side of the balance invariant. */
  async bookedSum(db: Executor, accountId: string, throughDate: string): Promise<number> {
    const row = await db
      .selectFrom('transactions')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
      .where('account_id', '=', accountId)
      .where('date', '<=', throughDate)
      .executeTakeFirstOrThrow()
    return Number(row.total)
  },
}
