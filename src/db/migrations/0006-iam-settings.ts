import { sql, type Kysely } from 'kysely'

/**
 * What the IAM settings API needs: role descriptions, roles deleted softly (users deleted before
 * keep pointing at their role), one live user per email in an organization, and the lookups of a
 * user's keys and an organization's users by index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite adds one column per ALTER TABLE.
  await db.schema.alterTable('roles').addColumn('description', 'text').execute()
  await db.schema.alterTable('roles').addColumn('deleted_at', 'text').execute()
  await db.schema.createIndex('users_organization_id').on('users').columns(['organization_id', 'id']).execute()
  await db.schema
    .createIndex('users_email_unique')
    .on('users')
    .columns(['organization_id', 'email'])
    .unique()
    .where(sql<boolean>`deleted_at is null`)
    .execute()
  await db.schema.createIndex('access_keys_user_id').on('access_keys').columns(['user_id', 'id']).execute()
}
