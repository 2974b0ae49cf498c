import { type Kysely } from 'kysely'

/**
 * People sign in (issue 11): passwords of HUMAN users (hashed with scrypt, their parameters kept beside
 * them), optional TOTP secrets, server-side sessions (only a digest of the token), the failure counters
 * that lock sign-in out per account and per address (in the database, so a restart or a second process
 * does not reset them), and the organization setting that makes approving payments need a second factor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('approvals_require_second_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  await db.schema
    .createTable('user_passwords')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('change_required', 'integer', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('last_used_step', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('second_factor', 'integer', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute()
  await db.schema.createIndex('sessions_user_id').on('sessions').columns(['user_id', 'id']).execute()

  await db.schema
    .createTable('sign_in_failures')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .execute()
  // Counters nobody has failed against for an hour are purged by age.
  await db.schema.createIndex('sign_in_failures_last_failure_at').on('sign_in_failures').column('last_failure_at').execute()
}
