import type { Executor } from '../../db/database.js'
import type { UsersTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import type { User, UserType } from './user.schemas.js'

export function toUser(row: UsersTable): User {
  return {
    id: row.id,
    organizationId: row.organization_id,
    type: row.kind,
    name: row.name,
    ...(row.email !== null ? { email: row.email } : {}),
    roleId: row.role_id,
    status: row.deactivated_at === null ? 'ACTIVE' : 'DEACTIVATED',
    ...(row.deactivated_at !== null ? { deactivated: row.deactivated_at } : {}),
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

/**
 * The row of a new user, active, at version 1: the one shape every way of adding a user inserts (the
 * API, the CLI and the first start, a programmatic user with its access key).
 */
export function newUserRow(user: Pick<UsersTable, 'organization_id' | 'kind' | 'name' | 'email' | 'role_id'>): UsersTable {
  const now = nowIso()
  return { id: newId(), ...user, version: 1, created: now, updated: now, deleted_at: null, deactivated_at: null }
}

export type UserChanges = Pick<UsersTable, 'name' | 'email' | 'role_id' | 'version' | 'updated'>

export const userRepo = {
  async insert(trx: Executor, row: UsersTable): Promise<void> {
    await trx.insertInto('users').values(row).execute()
  },

  /** Including deleted rows, so a deleted user answers 410 rather than 404. */
  async find(db: Executor, organizationId: string, id: string): Promise<UsersTable | undefined> {
    return db.selectFrom('users').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** Live users, oldest first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: { type?: UserType; roleId?: string }, page: PageRequest): Promise<UsersTable[]> {
    let query = db.selectFrom('users').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null)
    if (filters.type) query = query.where('kind', '=', filters.type)
    if (filters.roleId) query = query.where('role_id', '=', filters.roleId)
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },

  /**
   * The live users among `ids`, each row locked until the transaction ends (a write that changes
   * nothing): a concurrent deletion of one of them waits for us, and we wait for it.
   */
  async lockLive(trx: Executor, organizationId: string, ids: readonly string[]): Promise<UsersTable[]> {
    if (ids.length === 0) return []
    return trx
      .updateTable('users')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .returningAll()
      .execute()
  },

  /** Writes the new state if the row is still live at `expectedVersion`; false when someone else wrote first. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: UserChanges): Promise<boolean> {
    const result = await trx
      .updateTable('users')
      .set(changes)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** A new version of a live user whose access keys changed; the row after, or undefined if it was deleted. */
  async touch(trx: Executor, id: string, now: string): Promise<UsersTable | undefined> {
    return trx
      .updateTable('users')
      .set((eb) => ({ updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  /**
   * Deactivates (`deactivatedAt` a time) or reactivates (null) a live user at any version, bumping it; the
   * row after, or undefined when the user is gone or already in that state.
   */
  async setDeactivated(trx: Executor, id: string, deactivatedAt: string | null, now: string): Promise<UsersTable | undefined> {
    return trx
      .updateTable('users')
      .set((eb) => ({ deactivated_at: deactivatedAt, updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('deactivated_at', deactivatedAt === null ? 'is not' : 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  /** Marks a live user deleted at any version, bumping it; the deleted row, or undefined if it was already gone. */
  async markDeleted(trx: Executor, id: string, now: string): Promise<UsersTable | undefined> {
    return trx
      .updateTable('users')
      .set((eb) => ({ deleted_at: now, updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  async countLiveWithRole(db: Executor, roleId: string): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('role_id', '=', roleId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow()
    return Number(row.count)
  },

  /** Live, active users holding an Owner role with at least one active access key: the Owners who can still act. */
  async countOwnersWithKeys(db: Executor, organizationId: string): Promise<number> {
    const row = await db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select((eb) => eb.fn.count<number>('u.id').distinct().as('count'))
      .where('u.organization_id', '=', organizationId)
      .where('u.deleted_at', 'is', null)
      .where('u.deactivated_at', 'is', null)
      .where('r.owner', '=', 1)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('access_keys as k')
            .select('k.id')
            .whereRef('k.user_id', '=', 'u.id')
            .where('k.revoked_at', 'is', null),
        ),
      )
      .executeTakeFirstOrThrow()
    return Number(row.count)
  },
}
