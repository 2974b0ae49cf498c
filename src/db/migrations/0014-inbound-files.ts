import { type Kysely } from 'kysely'

/**
 * Issue 12, files in: a file received from a bank is kept once per connection and content (its SHA-256), so
 * the same file again changes nothing; `report` is what processing it did, answered again to a re-upload.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bank_files').addColumn('report', 'text').execute()
  await db.schema.createIndex('bank_files_content').on('bank_files').columns(['connection_id', 'direction', 'sha256']).unique().execute()
}
