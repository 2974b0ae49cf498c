import type { Executor } from '../db/database.js'
import type { RolesTable } from '../db/schema.js'
import { ApiError } from '../http/errors.js'
import type { Actor } from './actor.js'
import { isPermission } from './permissions.js'
import { roleRepo } from './roles/role.repo.js'
import { userRepo } from './users/user.repo.js'

/**
 * Two rules every change to users, roles and keys obeys:
 * - nobody hands out rights they do not hold (a role's permissions, or an access key that acts as
 *   another user), and only an Owner grants, takes away or hands out owner rights;
 * - the organization always keeps an Owner who can act, i.e. a live, not deactivated user with an Owner
 *   role and an active access key (spec: Approval rules — the Owner approves what no chain covers). People also
 *   sign in with passwords, but a password can be forgotten and a session expires: the key is the
 *   credential that keeps the organization governable, so only it counts here.
 */

export interface GrantedRights {
  name: string
  owner: boolean
  permissions: readonly string[]
}

export function rightsOf(role: RolesTable): GrantedRights {
  return { name: role.name, owner: role.owner === 1, permissions: JSON.parse(role.permissions) as string[] }
}

/**
 * @param action what the actor does with the role, for the message ("assign", "create an access key for a user with").
 * @throws ApiError forbidden (403) when the rights exceed the actor's own.
 */
export function assertMayGrant(actor: Actor, rights: GrantedRights, action: string): void {
  if (actor.owner) return
  if (rights.owner) throw new ApiError('forbidden', `Only an Owner may ${action} the role "${rights.name}", which holds owner rights`)
  const missing = rights.permissions.filter((permission) => !isPermission(permission) || !actor.permissions.has(permission))
  if (missing.length > 0) {
    throw new ApiError('forbidden', `You may not ${action} the role "${rights.name}": it holds permissions you lack: ${missing.join(', ')}`)
  }
}

/** @throws ApiError forbidden (403) when a non-Owner would take owner rights away from someone. */
export function assertMayRevokeOwnerRights(actor: Actor, role: RolesTable, action: string): void {
  if (role.owner === 1 && !actor.owner) throw new ApiError('forbidden', `Only an Owner may ${action} a user with owner rights`)
}

/**
 * Taken first by every change that could leave the organization without an Owner, so two such
 * changes (say, two Owners demoting each other) run one after the other and the second sees the first.
 */
export function lockOwnership(trx: Executor, organizationId: string): Promise<void> {
  return roleRepo.lockOwnerRoles(trx, organizationId)
}

/**
 * Checked after the change, in its transaction, so it judges the state that would commit.
 * @throws ApiError conflict (409) when no Owner who can act would remain; the change rolls back.
 */
export async function assertOwnerRemains(trx: Executor, organizationId: string): Promise<void> {
  if ((await userRepo.countOwnersWithKeys(trx, organizationId)) > 0) return
  throw new ApiError(
    'conflict',
    'The organization must keep an Owner with an active access key; this change would leave none. Give another user the owner role, or create a new key first',
  )
}
