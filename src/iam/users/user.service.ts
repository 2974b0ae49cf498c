import type { Database, Executor } from '../../db/database.js'
import type { RolesTable, UsersTable } from '../../db/schema.js'
import { isUniqueViolation } from '../../db/errors.js'
import { recordEvent } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { requireLive } from '../../shared/lookup.js'
import type { Actor } from '../actor.js'
import { recordAuditEntry } from '../audit-log/audit-log.service.js'
import type { IdentityReferences } from '../identity-references.js'
import { accessKeyRepo } from '../access-keys/access-key.repo.js'
import { forgetCachedGrants } from '../authenticate.js'
import { assertMayGrant, assertMayRevokeOwnerRights, assertOwnerRemains, lockOwnership, rightsOf } from '../privileges.js'
import { roleRepo } from '../roles/role.repo.js'
import { sessionRepo } from '../sessions/session.repo.js'
import { newUserRow, toUser, userRepo } from './user.repo.js'
import { USER_PATCH_RULES, UserEditable, type CreateUser, type User, type UserListQuery, type UserType } from './user.schemas.js'

export const USERS = 'users'
const applyPatch = createPatcher(UserEditable, USER_PATCH_RULES)

/** HUMAN users have an email, PROGRAMMATIC ones none; stored lower-case so uniqueness ignores case. */
function emailOf(type: UserType, email: string | undefined): string | null {
  if (type === 'HUMAN') {
    if (email === undefined) throw invalidField('email', 'is required for a HUMAN user', 'required')
    return email.toLowerCase()
  }
  if (email !== undefined) throw invalidField('email', 'is only for HUMAN users; a PROGRAMMATIC user has none')
  return null
}

function emailTaken(error: unknown, email: string | null): ApiError | undefined {
  if (!isUniqueViolation(error)) return undefined
  return new ApiError('conflict', `The organization already has a user with the email ${email}`)
}

/** The live role a user is given, locked so it cannot be deleted meanwhile. @throws ApiError invalid_request (400). */
async function lockRole(trx: Executor, organizationId: string, roleId: string): Promise<RolesTable> {
  const [role] = await roleRepo.lockLive(trx, organizationId, [roleId])
  if (!role) throw invalidField('roleId', 'is not a role of this organization')
  return role
}

/** The role a (possibly deleted) user holds; the foreign key guarantees it exists. */
export async function roleOf(db: Executor, user: UsersTable): Promise<RolesTable> {
  const role = await roleRepo.find(db, user.organization_id, user.role_id)
  if (!role) throw new Error(`User ${user.id} holds the missing role ${user.role_id}`)
  return role
}

export async function loadUser(db: Executor, organizationId: string, id: string): Promise<UsersTable> {
  return requireLive(await userRepo.find(db, organizationId, id), 'user', { id })
}

export function createUserService(database: Database, references: IdentityReferences) {
  return {
    /**
     * Creates a human or programmatic user with a role; programmatic users then get access keys.
     * @throws ApiError invalid_request (400: email for the type, unknown role), forbidden (403: a role
     * with rights the actor lacks), conflict (409: email taken).
     */
    async create(ctx: CommandContext, input: CreateUser): Promise<User> {
      const { organizationId } = ctx.actor
      const email = emailOf(input.type, input.email)
      try {
        return await ctx.transaction(async (trx) => {
          const role = await lockRole(trx, organizationId, input.roleId)
          assertMayGrant(ctx.actor, rightsOf(role), 'assign')
          const row = newUserRow({ organization_id: organizationId, kind: input.type, name: input.name, email, role_id: role.id })
          await userRepo.insert(trx, row)
          const user = toUser(row)
          await recordEvent(trx, { organizationId, entityType: USERS, entityId: row.id, type: 'CREATED', name: 'CREATED', originator: ctx.actor.userId, entity: user })
          await recordAuditEntry(trx, ctx, { action: 'users.create', resourceType: USERS, resourceId: row.id, after: user })
          return user
        })
      } catch (error) {
        throw emailTaken(error, email) ?? error
      }
    },

    /** @throws ApiError not_found (404), gone (410). */
    async get(actor: Actor, id: string): Promise<User> {
      return toUser(await loadUser(database.db, actor.organizationId, id))
    },

    /** Live users, oldest first. @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: UserListQuery): Promise<ListEnvelopeOf<User>> {
      const filters = { type: query.type, roleId: query.roleId?.toLowerCase() }
      const page = pageRequest(query, USERS, filters, ['text'])
      const rows = await userRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], toUser)
    },

    /**
     * Applies a JSON Patch (name, email of a human, roleId) if `etag` is current. A new role applies
     * to the user's keys from their next request.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412), invalid_patch (400),
     * invalid_request (400: unknown role), forbidden (403: owner rights or permissions the actor lacks),
     * conflict (409: email taken, or the organization would be left without an Owner).
     */
    async update(ctx: CommandContext, id: string, etag: string, operations: JsonPatchOperation[]): Promise<User> {
      const { organizationId } = ctx.actor
      let email: string | null = null
      let staleKeys: string[] = []
      try {
        const user = await ctx.transaction(async (trx) => {
          const current = await loadUser(trx, organizationId, id)
          assertEtag(etag, etagOf(current.version))
          const patched = applyPatch(
            { name: current.name, ...(current.email !== null ? { email: current.email } : {}), roleId: current.role_id },
            operations,
          )
          // JSON Patch may set an absent field (json-patch.ts): an access key's user has none to set.
          if (current.kind === 'PROGRAMMATIC' && patched.email !== undefined) throw invalidField('email', 'a programmatic user (an access key) has no email')
          email = patched.email?.toLowerCase() ?? null
          const roleChanged = patched.roleId !== current.role_id
          if (roleChanged) {
            await lockOwnership(trx, organizationId)
            assertMayRevokeOwnerRights(ctx.actor, await roleOf(trx, current), 'change the role of')
            assertMayGrant(ctx.actor, rightsOf(await lockRole(trx, organizationId, patched.roleId)), 'assign')
          }
          const changes = { name: patched.name, email, role_id: patched.roleId, version: current.version + 1, updated: nowIso() }
          if (!(await userRepo.update(trx, id, current.version, changes))) {
            await loadUser(trx, organizationId, id)
            throw new ApiError('precondition_failed', 'The user changed while this request ran; fetch it again')
          }
          if (roleChanged) {
            await assertOwnerRemains(trx, organizationId)
            staleKeys = await accessKeyRepo.activeKeysOf(trx, id)
          }
          const updated = toUser({ ...current, ...changes })
          await recordEvent(trx, { organizationId, entityType: USERS, entityId: id, type: 'UPDATED', name: 'UPDATED', originator: ctx.actor.userId, entity: updated })
          await recordAuditEntry(trx, ctx, { action: 'users.update', resourceType: USERS, resourceId: id, before: toUser(current), after: updated })
          return updated
        })
        forgetCachedGrants(staleKeys)
        return user
      } catch (error) {
        throw emailTaken(error, email) ?? error
      }
    },

    /**
     * Deletes a user (softly: afterwards it answers 410) and revokes its access keys at once.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412: `etag` is stale),
     * forbidden (403: a non-Owner deleting an Owner), conflict (409: named by an approval chain, or the
     * last Owner with an active key).
     */
    async remove(ctx: CommandContext, id: string, etag: string): Promise<void> {
      const { organizationId } = ctx.actor
      let revoked: string[] = []
      await ctx.transaction(async (trx) => {
        await lockOwnership(trx, organizationId)
        const current = await loadUser(trx, organizationId, id)
        assertMayRevokeOwnerRights(ctx.actor, await roleOf(trx, current), 'delete')
        const now = nowIso()
        const row = await userRepo.markDeleted(trx, id, now)
        if (!row) {
          await loadUser(trx, organizationId, id)
          throw new ApiError('gone', `The user ${id} was deleted`)
        }
        assertEtag(etag, etagOf(row.version - 1))
        const chains = await references.namesReferencing(trx, organizationId, id)
        if (chains.length > 0) {
          throw new ApiError('conflict', `The user is a named approver in the ${references.referrer}(s) ${chains.map((c) => `"${c}"`).join(', ')}; change them first`)
        }
        revoked = await accessKeyRepo.revokeAllOf(trx, id, now)
        await assertOwnerRemains(trx, organizationId)
        await recordEvent(trx, { organizationId, entityType: USERS, entityId: id, type: 'DELETED', name: 'DELETED', originator: ctx.actor.userId, entity: toUser(row) })
        await recordAuditEntry(trx, ctx, { action: 'users.delete', resourceType: USERS, resourceId: id, before: toUser(current) })
      })
      forgetCachedGrants(revoked)
    },

    /**
     * Deactivates a user: their access keys and sessions stop authenticating at once, their sessions end,
     * and they cannot sign in (issue 11). The keys stay, for reactivation.
     * @throws ApiError not_found (404), gone (410), forbidden (403: a role the actor could not assign),
     * conflict (409: already deactivated, or the last active Owner with an active key).
     */
    async deactivate(ctx: CommandContext, id: string): Promise<User> {
      return changeStatus(ctx, id, true)
    },

    /**
     * Reactivates a deactivated user: their access keys work again; the sessions that ended stay ended.
     * @throws ApiError not_found (404), gone (410), forbidden (403: a role the actor could not assign),
     * conflict (409: not deactivated).
     */
    async reactivate(ctx: CommandContext, id: string): Promise<User> {
      return changeStatus(ctx, id, false)
    },
  }
}

/** Only someone who could assign the user's role may change their status, as for a one-time password. */
async function changeStatus(ctx: CommandContext, id: string, deactivate: boolean): Promise<User> {
  const { organizationId } = ctx.actor
  let keys: string[] = []
  const user = await ctx.transaction(async (trx) => {
    await lockOwnership(trx, organizationId)
    const current = await loadUser(trx, organizationId, id)
    assertMayGrant(ctx.actor, rightsOf(await roleOf(trx, current)), deactivate ? 'deactivate a user with' : 'reactivate a user with')
    const now = nowIso()
    const row = await userRepo.setDeactivated(trx, id, deactivate ? now : null, now)
    if (!row) throw new ApiError('conflict', deactivate ? 'The user is already deactivated' : 'The user is not deactivated')
    if (deactivate) {
      await sessionRepo.revokeAllOf(trx, id, now)
      await assertOwnerRemains(trx, organizationId)
    }
    keys = await accessKeyRepo.activeKeysOf(trx, id)
    const updated = toUser(row)
    const name = deactivate ? 'DEACTIVATED' : 'REACTIVATED'
    await recordEvent(trx, { organizationId, entityType: USERS, entityId: id, type: 'UPDATED', name, originator: ctx.actor.userId, entity: updated })
    const action = deactivate ? 'users.deactivate' : 'users.reactivate'
    await recordAuditEntry(trx, ctx, { action, resourceType: USERS, resourceId: id, before: toUser(current), after: updated })
    return updated
  })
  forgetCachedGrants(keys)
  return user
}
