import { type Kysely } from 'kysely'

/**
 * Issue 12, files out:
 * - `bank_file_items`: a payment handed to a FILES connection, queued until the payment worker gathers it into a
 *   file (`file_id` set then). One per payment: submitting again changes nothing (bank-connector.ts).
 * - `bank_files`: every file made (OUTBOUND) or received (INBOUND), its content kept for audit and download.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_file_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('bank_connections.id'))
    .addColumn('payment_id', 'text', (c) => c.notNull().unique())
    .addColumn('group_key', 'text', (c) => c.notNull())
    .addColumn('instruction', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('bank_file_items_queue').on('bank_file_items').columns(['file_id', 'created']).execute()
  await db.schema
    .createTable('bank_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('connection_id', 'text', (c) => c.notNull().references('bank_connections.id'))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('message_type', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('payment_ids', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('bank_files_org_id').on('bank_files').columns(['organization_id', 'id']).execute()
  await db.schema.createIndex('bank_files_status').on('bank_files').column('status').execute()
}
