import { type Kysely } from 'kysely'

/**
 * Users can be deactivated (issue 11: Settings → users): while `deactivated_at` is set, the user's access
 * keys and sessions do not authenticate and they cannot sign in; reactivation clears it and the keys work again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deactivated_at', 'text').execute()
}
