import { type Kysely } from 'kysely'

/**
 * Issue 12, the sandbox bank behind files: a FILES connection of a sandbox organization whose other side is the
 * simulated bank (`simulated_bank` 1). The bank takes each file of the connection once (`simulated_bank_intake`)
 * and answers with files (`simulated_bank_answers`: pain.002, camt.054) that reach the connection's inbox after
 * the transaction that wrote them (`delivered` then set).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bank_connections')
    .addColumn('simulated_bank', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createTable('simulated_bank_intake')
    .addColumn('file_id', 'text', (c) => c.primaryKey().references('bank_files.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('taken', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('simulated_bank_answers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('bank_connections.id'))
    .addColumn('message_type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('delivered', 'text')
    .execute()
  await db.schema.createIndex('simulated_bank_answers_undelivered').on('simulated_bank_answers').columns(['delivered', 'created']).execute()
}
