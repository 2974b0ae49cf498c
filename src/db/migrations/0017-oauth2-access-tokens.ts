import { type Kysely } from 'kysely'

/**
 * Issue 13, OAuth2 client credentials: the bearer tokens POST /iam/v2beta/oauth2/token issues to access keys,
 * kept as SHA-256 digests (never the tokens) so that every server process on the database accepts them.
 * Expired ones are deleted as new ones are issued, by `expires_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth2_access_tokens')
    .addColumn('token_digest', 'text', (c) => c.primaryKey())
    .addColumn('access_key_id', 'text', (c) => c.notNull().references('access_keys.id'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('oauth2_access_tokens_expires_at').on('oauth2_access_tokens').column('expires_at').execute()
}
