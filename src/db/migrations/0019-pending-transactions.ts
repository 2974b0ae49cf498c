import type { Kysely } from 'kysely'

/**
 * Issue 13, pending transactions (reference §2.3): entries a bank reports before it books them — the sandbox
 * bank's credit transfers it holds, camt PDNG entries. Each is known by the bank's reference of the entry on its
 * account (`entry_reference`, unique per account as a booked transaction's is): a repeated report changes the
 * one there is, and the booked entry with the same reference ends it (status BOOKED, `booked_transaction_id`).
 * A bank that drops the instruction withdraws it (WITHDRAWN). Columns otherwise as `transactions`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pending_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('value_date', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('end_to_end_id', 'text')
    .addColumn('mandate_reference', 'text')
    .addColumn('counterparty', 'text')
    .addColumn('bank_transaction_code', 'text')
    .addColumn('returned', 'integer', (c) => c.notNull())
    .addColumn('return_reason', 'text')
    .addColumn('entry_reference', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('booked_transaction_id', 'text', (c) => c.references('transactions.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('pending_transactions_entry_reference_unique')
    .on('pending_transactions')
    .columns(['account_id', 'entry_reference'])
    .unique()
    .execute()
  // Keyset paging, newest first, within a status: per account, and across the organization.
  await db.schema
    .createIndex('pending_transactions_account_status_date_id')
    .on('pending_transactions')
    .columns(['organization_id', 'account_id', 'status', 'date', 'id'])
    .execute()
  await db.schema
    .createIndex('pending_transactions_org_status_date_id')
    .on('pending_transactions')
    .columns(['organization_id', 'status', 'date', 'id'])
    .execute()
}
