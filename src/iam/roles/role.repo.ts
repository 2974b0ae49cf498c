import type { Executor } from '../../db/database.js'
import type { RolesTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import { isPermission } from '../permissions.js'
import type { Role } from './role.schemas.js'

export function toRole(row: RolesTable): Role {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    ...(row.description !== null ? { description: row.description } : {}),
    builtin: row.builtin !== null,
    owner: row.owner === 1,
    permissions: (JSON.parse(row.permissions) as string[]).filter(isPermission),
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

export type RoleChanges = Pick<RolesTable, 'name' | 'permissions' | 'description' | 'version' | 'updated'>

export const roleRepo = {
  async insert(trx: Executor, row: RolesTable): Promise<void> {
    await trx.insertInto('roles').values(row).execute()
  },

  async findByName(trx: Executor, organizationId: string, name: string): Promise<RolesTable | undefined> {
    return trx
      .selectFrom('roles')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
  },

  /** Including deleted rows, so a deleted role answers 410 rather than 404. */
  async find(db: Executor, organizationId: string, id: string): Promise<RolesTable | undefined> {
    return db.selectFrom('roles').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** Live roles, oldest first (the built-in ones lead); fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, page: PageRequest): Promise<RolesTable[]> {
    let query = db.selectFrom('roles').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null)
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },

  /**
   * The live roles among `ids`, each row locked until the transaction ends (a write that changes
   * nothing, which both backends support): a concurrent deletion of one of them waits for us, and
   * we wait for it, so nobody is given a role that is being deleted.
   */
  async lockLive(trx: Executor, organizationId: string, ids: readonly string[]): Promise<RolesTable[]> {
    if (ids.length === 0) return []
    return trx
      .updateTable('roles')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .returningAll()
      .execute()
  },

  /** Locks the organization's Owner roles: every change that could leave it without an Owner takes this lock first. */
  async lockOwnerRoles(trx: Executor, organizationId: string): Promise<void> {
    await trx
      .updateTable('roles')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('organization_id', '=', organizationId)
      .where('owner', '=', 1)
      .execute()
  },

  /** Writes the new state if the row is still live at `expectedVersion`; false when someone else wrote first. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: RoleChanges): Promise<boolean> {
    const result = await trx
      .updateTable('roles')
      .set(changes)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /**
   * Marks a role deleted (call with the row locked by `lockLive`), bumping its version.
   * Its name is freed for a new role: the table's (organization, name) constraint covers deleted rows
   * too and SQLite cannot narrow it, so the deleted row takes a name no live role can have.
   */
  async markDeleted(trx: Executor, role: RolesTable, now: string): Promise<RolesTable> {
    const deleted = { ...role, name: `${role.name} [deleted ${role.id}]`, deleted_at: now, updated: now, version: role.version + 1 }
    await trx
      .updateTable('roles')
      .set({ name: deleted.name, deleted_at: now, updated: now, version: deleted.version })
      .where('id', '=', role.id)
      .execute()
    return deleted
  },
}
