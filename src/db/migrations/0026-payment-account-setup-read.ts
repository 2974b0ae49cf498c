import { sql, SqliteAdapter, type Kysely } from 'kysely'
import { createTokenTrigger } from './0025-setup-state-tokens.js'

/**
 * Issue 14: every payment created reads its own account — the source of a credit transfer, the destination of an
 * own-account transfer — for its snapshot (id, market, currency, identifiers, BIC). Accounts change rarely, so that
 * read is a setup read too (db/setup-reads.ts): on SQLite it is answered from memory while the organization's state
 * token is unchanged. Migration 0025 watched only an account's `connection_id`; its update trigger now also watches
 * every column a payment's account read reads (financial-data/accounts/account.repo.ts PAYMENT_ACCOUNT_COLUMNS,
 * beside `id` and `organization_id`, which no update changes). Listed here, not imported from the repository: a
 * migration stays as it ran. Inserts and deletes of accounts already change the token (0025).
 */
const WATCHED_COLUMNS = ['connection_id', 'market', 'currency', 'identifiers', 'bic'] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return
  await sql.raw('drop trigger "setup_token_accounts_update"').execute(db)
  await createTokenTrigger(db, { table: 'accounts', organization: 'organization_id', columns: WATCHED_COLUMNS }, 'update')
}
