import { sql, SqliteAdapter, type Kysely } from 'kysely'

/**
 * Issue 14: every payment created reads its organization's setup — its name, Owner role, approval chains, webhooks,
 * the source account's bank connection, the sandbox bank's date — which changes a few times a day, in seven
 * statements of every create. On SQLite they are answered from memory while the organization's state token is the
 * same (db/setup-reads.ts). These triggers give the organization a new random token in the same statement as any
 * change to a row such a read sees, whichever connection or process makes it, cascades included; a rollback takes
 * the token back with the change, to the token of the state restored. Random, never counted up: a counter rolled
 * back would be counted up again by another change, to a number an answer of the undone state is remembered under.
 *
 * A table's `columns`, where given, are the only ones a setup read of it reads: other updates (the sandbox bank's
 * version, taken by every submission) keep the token. PostgreSQL gets the table but no triggers: it reads the setup
 * every time, in the same round trip as a create's other reads, and a token row written by every change would be one
 * more row lock for the organization's writes to queue on.
 */
const WATCHED: ReadonlyArray<{ table: string; organization: string; columns?: readonly string[] }> = [
  { table: 'organizations', organization: 'id', columns: ['name'] },
  { table: 'roles', organization: 'organization_id' },
  { table: 'approval_chains', organization: 'organization_id' },
  { table: 'webhooks', organization: 'organization_id' },
  { table: 'bank_connections', organization: 'organization_id' },
  { table: 'accounts', organization: 'organization_id', columns: ['connection_id'] },
  { table: 'sandbox_banks', organization: 'organization_id', columns: ['today'] },
  { table: 'sandbox_accounts', organization: 'organization_id' },
]

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('setup_state_tokens')
    .addColumn('organization_id', 'text', (column) => column.primaryKey())
    .addColumn('token', 'text', (column) => column.notNull())
    .execute()
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return
  for (const watched of WATCHED) {
    for (const event of ['insert', 'update', 'delete'] as const) await createTokenTrigger(db, watched, event)
  }
}

/**
 * The trigger that gives the organization of the row changed by `event` on `table` a new random token (see above);
 * for an update, only of `columns` where given. Also used by migration 0026, which re-creates the accounts' one.
 */
export async function createTokenTrigger(
  db: Kysely<unknown>,
  { table, organization, columns }: { table: string; organization: string; columns?: readonly string[] },
  event: 'insert' | 'update' | 'delete',
): Promise<void> {
  const row = event === 'delete' ? 'old' : 'new'
  const on = event === 'update' && columns ? `update of ${columns.map((column) => `"${column}"`).join(', ')}` : event
  await sql
    .raw(
      `create trigger "setup_token_${table}_${event}" after ${on} on "${table}" begin
         insert into "setup_state_tokens" ("organization_id", "token") values (${row}."${organization}", hex(randomblob(8)))
         on conflict ("organization_id") do update set "token" = excluded."token";
       end`,
    )
    .execute(db)
}
