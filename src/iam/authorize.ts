import { ApiError } from '../http/errors.js'
import type { Actor } from './actor.js'
import type { Permission } from './permissions.js'

/** @throws ApiError forbidden (403) when the actor's role lacks the permission. */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (!actor.permissions.has(permission)) {
    throw new ApiError('forbidden', `The role "${actor.roleName}" lacks the permission ${permission}`)
  }
}
