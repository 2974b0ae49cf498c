import { sql, type Kysely } from 'kysely'

/** The permissions this migration adds, as the built-in roles hold them (iam/permissions.ts, at this version). */
const CONNECTION_PERMISSIONS = ['connections:read', 'connections:create', 'connections:update', 'connections:delete']
const GRANTED: Record<string, string[]> = {
  owner: CONNECTION_PERMISSIONS,
  admin: CONNECTION_PERMISSIONS,
  'read-only': ['connections:read'],
}

/**
 * Bank connections (issue 12: real bank rails), deleted softly so they answer 410 afterwards. The built-in
 * roles of organizations made before this migration store their permissions, so they get the new ones here
 * as new organizations get them at creation: owner and admin all four, read-only connections:read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('external_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bank_name', 'text', (c) => c.notNull())
    .addColumn('bic', 'text', (c) => c.notNull())
    .addColumn('credit_transfer_version', 'text', (c) => c.notNull())
    .addColumn('direct_debit_version', 'text', (c) => c.notNull())
    .addColumn('initiating_party', 'text', (c) => c.notNull())
    .addColumn('creditor_scheme_id', 'text')
    .addColumn('outbox_dir', 'text')
    .addColumn('inbox_dir', 'text')
    .addColumn('batching_window_seconds', 'integer', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute()
  await db.schema.createIndex('bank_connections_org_id').on('bank_connections').columns(['organization_id', 'id']).execute()
  await db.schema
    .createIndex('bank_connections_external_id_unique')
    .on('bank_connections')
    .columns(['organization_id', 'external_id'])
    .unique()
    .execute()

  const roles = await sql<{ id: string; builtin: string; permissions: string }>`
    select id, builtin, permissions from roles where builtin is not null`.execute(db)
  for (const role of roles.rows) {
    const held = JSON.parse(role.permissions) as string[]
    const added = (GRANTED[role.builtin] ?? []).filter((permission) => !held.includes(permission))
    if (added.length === 0) continue
    await sql`update roles set permissions = ${JSON.stringify([...held, ...added])} where id = ${role.id}`.execute(db)
  }
}
