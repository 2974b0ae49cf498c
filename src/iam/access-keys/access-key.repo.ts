import type { Executor } from '../../db/database.js'
import type { AccessKeysTable } from '../../db/schema.js'

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
}

export const accessKeyRepo = {
  async insert(trx: Executor, row: AccessKeysTable): Promise<void> {
    await trx.insertInto('access_keys').values(row).execute()
  },

  /** The live grant behind an access key: not revoked, its user not deleted. */
  async findGrant(trx: Executor, accessKey: string): Promise<AccessKeyGrant | undefined> {
    return trx
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
      ])
      .where('k.access_key', '=', accessKey)
      .where('k.revoked_at', 'is', null)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst()
  },
}
