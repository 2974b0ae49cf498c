import type { Kysely } from 'kysely'

/**
 * The sandbox bank's own state: its clock per organization, the opening of each account's ledger,
 * and the payment instructions it has received. Booked entries and reported balances live in
 * `transactions` and `balances`, where every bank connector stores them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per sandbox organization: the bank's simulated business date. Locked by every step.
  await db.schema
    .createTable('sandbox_banks')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.id'))
    .addColumn('today', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .execute()

  // The ledger's start: balance = opening_balance + every booked entry dated from opening_date on.
  await db.schema
    .createTable('sandbox_accounts')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('opening_balance', 'bigint', (c) => c.notNull())
    .addColumn('opening_date', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('sandbox_accounts_organization').on('sandbox_accounts').column('organization_id').execute()

  await db.schema
    .createTable('sandbox_instructions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('payment_type', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('execution_date', 'text', (c) => c.notNull())
    .addColumn('counterparty_name', 'text', (c) => c.notNull())
    .addColumn('counterparty_iban', 'text', (c) => c.notNull())
    .addColumn('counterparty_bic', 'text')
    .addColumn('reference', 'text')
    .addColumn('end_to_end_id', 'text', (c) => c.notNull())
    .addColumn('mandate_reference', 'text')
    .addColumn('scheme', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason_code', 'text')
    .addColumn('booked_date', 'text')
    .addColumn('transaction_id', 'text')
    .addColumn('return_transaction_id', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .execute()
  // A payment is submitted once: a repeated submission returns the instruction already held.
  await db.schema
    .createIndex('sandbox_instructions_payment_unique')
    .on('sandbox_instructions')
    .columns(['organization_id', 'payment_id'])
    .unique()
    .execute()
  // What is due: open instructions by status and date, per organization and across all (the worker).
  await db.schema
    .createIndex('sandbox_instructions_due')
    .on('sandbox_instructions')
    .columns(['status', 'execution_date', 'organization_id'])
    .execute()
  await db.schema
    .createIndex('sandbox_instructions_organization')
    .on('sandbox_instructions')
    .columns(['organization_id', 'status', 'id'])
    .execute()
}
