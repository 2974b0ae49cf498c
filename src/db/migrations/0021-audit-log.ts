import { PostgresAdapter, sql, type Kysely } from 'kysely'

/** The permission this migration adds, as the built-in roles hold it (iam/permissions.ts, at this version). */
const AUDIT_LOG_READ = 'audit_log:read'
const GRANTED_TO = ['owner', 'admin', 'read-only']

const APPEND_ONLY = 'audit_log_entries is append-only'

/**
 * Issue 13, the audit trail: who changed what in an organization's settings, approved or rejected a payment,
 * signed in (or failed to), or used a new access key. Each entry is written in the transaction of the change it
 * records, names its actor (type USER through a session, ACCESS_KEY, or SYSTEM; the user, key and session ids),
 * the request id, the client's address, and the resource before and after as JSON, secrets redacted.
 *
 * Append-only: no route changes or deletes an entry, and the database itself refuses UPDATE, DELETE (and on
 * PostgreSQL TRUNCATE) on the table with a trigger, so neither a bug nor a stray statement can rewrite history.
 *
 * `access_keys.first_used_at`: set once, by the first request a key authenticates — the moment the log records
 * `access_keys.first_use`. Built-in roles get audit_log:read: owner and admin, and read-only (which holds every read).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_access_key_id', 'text')
    .addColumn('actor_session_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('client_address', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute()
  // Keyset paging newest first: across the organization, and for one resource (the common question "who changed this?").
  await db.schema.createIndex('audit_log_entries_org_created_id').on('audit_log_entries').columns(['organization_id', 'created', 'id']).execute()
  await db.schema
    .createIndex('audit_log_entries_org_resource')
    .on('audit_log_entries')
    .columns(['organization_id', 'resource_type', 'resource_id', 'created', 'id'])
    .execute()

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function audit_log_entries_append_only() returns trigger language plpgsql as $$
      begin
        raise exception '${sql.raw(APPEND_ONLY)}';
      end
      $$`.execute(db)
    await sql`
      create trigger audit_log_entries_no_change before update or delete on audit_log_entries
      for each row execute function audit_log_entries_append_only()`.execute(db)
    await sql`
      create trigger audit_log_entries_no_truncate before truncate on audit_log_entries
      for each statement execute function audit_log_entries_append_only()`.execute(db)
  } else {
    await sql`
      create trigger audit_log_entries_no_update before update on audit_log_entries
      begin select raise(abort, '${sql.raw(APPEND_ONLY)}'); end`.execute(db)
    await sql`
      create trigger audit_log_entries_no_delete before delete on audit_log_entries
      begin select raise(abort, '${sql.raw(APPEND_ONLY)}'); end`.execute(db)
  }

  await db.schema.alterTable('access_keys').addColumn('first_used_at', 'text').execute()
  // Keys made before this version have been in use already: their first use is not news.
  await sql`update access_keys set first_used_at = created`.execute(db)

  const roles = await sql<{ id: string; permissions: string }>`
    select id, permissions from roles where builtin in (${sql.join(GRANTED_TO)})`.execute(db)
  for (const role of roles.rows) {
    const held = JSON.parse(role.permissions) as string[]
    if (held.includes(AUDIT_LOG_READ)) continue
    await sql`update roles set permissions = ${JSON.stringify([...held, AUDIT_LOG_READ])} where id = ${role.id}`.execute(db)
  }
}
