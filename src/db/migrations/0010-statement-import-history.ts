import { type Kysely } from 'kysely'

/**
 * Issue 12, statement import against what real banks send:
 * - a transaction says where its booking date came from when the bank reported none (camt BookgDt is
 *   optional): null when it did, as for every transaction booked before;
 * - each statement imported is recorded with the days it covers, so that an older one imported later
 *   is booked with a warning rather than silently.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('date_source', 'text').execute()
  await db.schema
    .createTable('statement_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('statement_id', 'text', (c) => c.notNull())
    .addColumn('from_date', 'text')
    .addColumn('to_date', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute()
  // The account's statement whose period ends last.
  await db.schema.createIndex('statement_imports_account_to_date').on('statement_imports').columns(['account_id', 'to_date']).execute()
}
