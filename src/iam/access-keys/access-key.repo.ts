import type { Executor } from '../../db/database.js'
import type { AccessKeysTable } from '../../db/schema.js'
import { preparedQuery } from '../../db/prepared-query.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import type { AccessKey } from './access-key.schemas.js'

/** The audit log's resource type of access keys (iam/audit-log). */
export const ACCESS_KEYS = 'access_keys'

/** What authentication needs to know about a key, in one indexed read. */
export interface AccessKeyGrant {
  accessKeyId: string
  secretHash: string
  organizationId: string
  userId: string
  roleId: string
  roleName: string
  owner: number
  permissions: string
  /** Null until the key first authenticates a request (first-use.ts). */
  firstUsedAt: string | null
}

export function toAccessKey(row: AccessKeysTable): AccessKey {
  return { id: row.id, userId: row.user_id, accessKey: row.access_key, created: row.created }
}

/**
 * The grant behind an access key, read on every authentication whose grant is not cached: compiled once,
 * and outside a transaction run on the read path (SQLite's read connection), so a request never waits
 * behind another request's long write transaction (a statement import) just to be authenticated.
 */
const grantOf = preparedQuery((db, parameter: (name: 'accessKey') => string) =>
  db
    .selectFrom('access_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'k.id as accessKeyId',
      'k.secret_hash as secretHash',
      'k.organization_id as organizationId',
      'u.id as userId',
      'r.id as roleId',
      'r.name as roleName',
      'r.owner as owner',
      'r.permissions as permissions',
      'k.first_used_at as firstUsedAt',
    ])
    .where('k.access_key', '=', parameter('accessKey'))
    .where('k.revoked_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .where('u.deactivated_at', 'is', null),
)

export const accessKeyRepo = {
  async insert(trx: Executor, row: AccessKeysTable): Promise<void> {
    await trx.insertInto('access_keys').values(row).execute()
  },

  /** The live grant behind an access key: not revoked, its user neither deleted nor deactivated. */
  async findGrant(db: Executor, accessKey: string): Promise<AccessKeyGrant | undefined> {
    return (await grantOf(db, { accessKey }))[0]
  },

  /** One key of a user, revoked or not. */
  async find(db: Executor, userId: string, id: string): Promise<AccessKeysTable | undefined> {
    return db.selectFrom('access_keys').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
  },

  /** A user's active keys, oldest first; fetches `limit + 1` rows for the pager. */
  async listActive(db: Executor, userId: string, page: PageRequest): Promise<AccessKeysTable[]> {
    let query = db.selectFrom('access_keys').selectAll().where('user_id', '=', userId).where('revoked_at', 'is', null)
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },

  /** The access keys (public halves) of a user's active keys. */
  async activeKeysOf(db: Executor, userId: string): Promise<string[]> {
    const rows = await db.selectFrom('access_keys').select('access_key').where('user_id', '=', userId).where('revoked_at', 'is', null).execute()
    return rows.map((row) => row.access_key)
  },

  /** Revokes one active key; false when it was already revoked. */
  async revoke(trx: Executor, id: string, now: string): Promise<boolean> {
    const result = await trx
      .updateTable('access_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Revokes every active key of a user; the access keys revoked. */
  async revokeAllOf(trx: Executor, userId: string, now: string): Promise<string[]> {
    const rows = await trx
      .updateTable('access_keys')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('access_key')
      .execute()
    return rows.map((row) => row.access_key)
  },
}
