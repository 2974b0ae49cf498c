import type { Database, Executor } from '../db/database.js'
import { nowIso } from '../shared/clock.js'
import { newId } from '../shared/ids.js'
import { ACCESS_KEYS, accessKeyRepo, toAccessKey } from './access-keys/access-key.repo.js'
import { recordAuditEntry } from './audit-log/audit-log.service.js'
import { BUILTIN_ROLES, type BuiltinRoleName } from './permissions.js'
import { roleRepo } from './roles/role.repo.js'
import { newAccessKey, newSecret, hashSecret } from './secrets.js'
import { newUserRow, toUser, userRepo } from './users/user.repo.js'

/** Shown once, at creation; only the digest of `secret` is kept. */
export interface Credentials {
  organizationId: string
  userId: string
  accessKey: string
  secret: string
  role: string
}

export class RoleNotFoundError extends Error {}

/** Creates the built-in roles of a new organization (owner, admin, read-only). */
export async function createBuiltinRoles(trx: Executor, organizationId: string): Promise<void> {
  const now = nowIso()
  for (const role of BUILTIN_ROLES) {
    await roleRepo.insert(trx, {
      id: newId(),
      organization_id: organizationId,
      name: role.name,
      builtin: role.name,
      owner: role.owner ? 1 : 0,
      permissions: JSON.stringify(role.permissions),
      description: null,
      version: 1,
      created: now,
      updated: now,
      deleted_at: null,
    })
  }
}

/**
 * A programmatic user with the named role and an access key for it.
 * @throws RoleNotFoundError when the organization has no role of that name.
 */
export async function createProgrammaticAccess(
  trx: Executor,
  organizationId: string,
  roleName: BuiltinRoleName | string,
  userName = `API user (${roleName})`,
): Promise<Credentials> {
  const role = await roleRepo.findByName(trx, organizationId, roleName)
  if (!role) throw new RoleNotFoundError(`Organization ${organizationId} has no role "${roleName}"`)
  const user = newUserRow({ organization_id: organizationId, kind: 'PROGRAMMATIC', name: userName, email: null, role_id: role.id })
  await userRepo.insert(trx, user)
  const accessKey = newAccessKey()
  const secret = newSecret()
  const key = {
    id: newId(),
    organization_id: organizationId,
    user_id: user.id,
    access_key: accessKey,
    secret_hash: hashSecret(secret),
    created: user.created,
    revoked_at: null,
    first_used_at: null,
  }
  await accessKeyRepo.insert(trx, key)
  // Made by the system (a new organization's Owner key, `kassa keys create`): logged as the system's (issue 13).
  const system = { actor: { type: 'SYSTEM' as const, organizationId } }
  await recordAuditEntry(trx, system, { action: 'users.create', resourceType: 'users', resourceId: user.id, after: toUser(user) })
  await recordAuditEntry(trx, system, { action: 'access_keys.create', resourceType: ACCESS_KEYS, resourceId: key.id, after: toAccessKey(key) })
  return { organizationId, userId: user.id, accessKey, secret, role: role.name }
}

/** Used by the CLI: `kassa keys create`. */
export function createAccessKey(database: Database, organizationId: string, roleName: string): Promise<Credentials> {
  return database.transaction((trx) => createProgrammaticAccess(trx, organizationId, roleName))
}
