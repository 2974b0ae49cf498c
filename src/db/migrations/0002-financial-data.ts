import type { Kysely } from 'kysely'

/** Booked transactions and reported balances of own accounts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transactions')
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
    .addColumn('reconciliation_status', 'text', (c) => c.notNull())
    .addColumn('attached_transactables', 'text', (c) => c.notNull())
    .addColumn('returned', 'integer', (c) => c.notNull())
    .addColumn('return_reason', 'text')
    .addColumn('entry_reference', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .execute()
  // The bank's own reference for an entry: importing the same statement twice books nothing new.
  await db.schema
    .createIndex('transactions_entry_reference_unique')
    .on('transactions')
    .columns(['account_id', 'entry_reference'])
    .unique()
    .execute()
  // Keyset paging, newest first: per account, and across the organization.
  await db.schema
    .createIndex('transactions_account_date_id')
    .on('transactions')
    .columns(['organization_id', 'account_id', 'date', 'id'])
    .execute()
  await db.schema.createIndex('transactions_org_date_id').on('transactions').columns(['organization_id', 'date', 'id']).execute()

  await db.schema
    .createTable('balances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('reported_type', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('local_date', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('balances_report_unique')
    .on('balances')
    .columns(['account_id', 'type', 'reported_type', 'local_date'])
    .unique()
    .execute()
  await db.schema
    .createIndex('balances_account_date_id')
    .on('balances')
    .columns(['organization_id', 'account_id', 'local_date', 'id'])
    .execute()
}
