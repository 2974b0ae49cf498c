import { sql, type Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'

/** The permissions this migration adds, as the built-in roles hold them (iam/permissions.ts, at this version). */
const ENTITY_PERMISSIONS = ['entities:read', 'entities:create', 'entities:update', 'entities:delete']
const GRANTED: Record<string, string[]> = {
  owner: ENTITY_PERMISSIONS,
  admin: ENTITY_PERMISSIONS,
  'read-only': ['entities:read'],
}

/** What the sandbox bank's own connection is, as financial-data/sandbox and connectivity/connections say at this version. */
const SANDBOX_BANK = { name: 'Kassa Testbank', bic: 'KASADEFFXXX' }
const MESSAGE_VERSIONS = { creditTransfers: 'pain.001.001.09', directDebits: 'pain.008.001.08' }
const BATCHING_WINDOW_SECONDS = 300

/**
 * Issue 13, entities: the legal entities of an organization (reference §2.10), deleted softly so they answer 410
 * afterwards. Every account belongs to one (`entity_id`), and a counterparty may be scoped to some (`entity_ids`,
 * a JSON array; empty: the whole organization).
 *
 * Organizations made before this migration get what new ones get at creation: one entity named as the
 * organization, which their accounts then belong to; a sandbox organization also its sandbox bank's own
 * connection (type SANDBOX), which the sandbox bank's accounts name as their bank connection (thirdPartyId).
 * Their built-in roles get the entity permissions: owner and admin all four, read-only entities:read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('external_id', 'text')
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.references('entities.id'))
    .addColumn('national_identifier', 'text')
    .addColumn('address', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute()
  await db.schema.createIndex('entities_org_id').on('entities').columns(['organization_id', 'id']).execute()
  await db.schema.createIndex('entities_external_id_unique').on('entities').columns(['organization_id', 'external_id']).unique().execute()
  await db.schema.createIndex('entities_parent_id').on('entities').column('parent_id').execute()

  await db.schema.alterTable('accounts').addColumn('entity_id', 'text', (c) => c.references('entities.id')).execute()
  await db.schema.createIndex('accounts_entity_id').on('accounts').column('entity_id').execute()
  await db.schema.alterTable('counterparties').addColumn('entity_ids', 'text', (c) => c.notNull().defaultTo('[]')).execute()

  const now = new Date().toISOString()
  const organizations = await sql<{ id: string; name: string }>`select id, name from organizations order by id`.execute(db)
  for (const organization of organizations.rows) {
    const entityId = uuidv7()
    await sql`
      insert into entities (id, organization_id, external_id, legal_name, parent_id, national_identifier, address, metadata, version, created, updated, deleted_at)
      values (${entityId}, ${organization.id}, null, ${organization.name.slice(0, 255)}, null, null, null, '{}', 1, ${now}, ${now}, null)`.execute(db)
    await sql`update accounts set entity_id = ${entityId} where organization_id = ${organization.id}`.execute(db)
  }

  const sandboxBanks = await sql<{ organization_id: string; name: string }>`
    select b.organization_id, o.name from sandbox_banks b join organizations o on o.id = b.organization_id order by b.organization_id`.execute(db)
  for (const bank of sandboxBanks.rows) {
    const connectionId = uuidv7()
    await sql`
      insert into bank_connections (id, organization_id, external_id, type, name, bank_name, bic, credit_transfer_version,
        direct_debit_version, initiating_party, creditor_scheme_id, outbox_dir, inbox_dir, batching_window_seconds,
        simulated_bank, metadata, version, created, updated, deleted_at)
      values (${connectionId}, ${bank.organization_id}, null, 'SANDBOX', ${SANDBOX_BANK.name}, ${SANDBOX_BANK.name}, ${SANDBOX_BANK.bic},
        ${MESSAGE_VERSIONS.creditTransfers}, ${MESSAGE_VERSIONS.directDebits}, ${JSON.stringify({ name: bank.name.slice(0, 70) })}, null, null,
        null, ${BATCHING_WINDOW_SECONDS}, 0, '{}', 1, ${now}, ${now}, null)`.execute(db)
    // The sandbox bank's own accounts; those it holds for a FILES connection to it already name that connection.
    await sql`
      update accounts set connection_id = ${connectionId}
      where organization_id = ${bank.organization_id} and connection_id is null
        and id in (select account_id from sandbox_accounts where organization_id = ${bank.organization_id})`.execute(db)
  }

  const roles = await sql<{ id: string; builtin: string; permissions: string }>`
    select id, builtin, permissions from roles where builtin is not null`.execute(db)
  for (const role of roles.rows) {
    const held = JSON.parse(role.permissions) as string[]
    const added = (GRANTED[role.builtin] ?? []).filter((permission) => !held.includes(permission))
    if (added.length === 0) continue
    await sql`update roles set permissions = ${JSON.stringify([...held, ...added])} where id = ${role.id}`.execute(db)
  }
}
