import { type Kysely } from 'kysely'

/**
 * Issue 12, files out: an own account names the bank connection that serves it (its `thirdPartyId`, reference
 * §2.2); null for the sandbox bank's accounts and for accounts registered without one. Indexed so that deleting
 * a connection finds the accounts still using it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('connection_id', 'text').execute()
  await db.schema.createIndex('accounts_connection_id').on('accounts').column('connection_id').execute()
}
