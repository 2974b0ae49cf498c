import type { Kysely } from 'kysely'

/**
 * Issue 14: every payment created plans its approval steps with the organization's Owner role (iam/roles/owner-role.ts),
 * found by (organization_id, owner) in the order of `created`. Without this index SQLite read each of the
 * organization's role rows whole — `created` lies after the long `permissions` text, in overflow pages — and sorted
 * them: about 25 µs a create, 100 µs inside a write transaction. The index answers it alone, in order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('roles_owner').on('roles').columns(['organization_id', 'owner', 'created', 'id']).execute()
}
