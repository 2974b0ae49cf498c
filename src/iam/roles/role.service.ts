import type { Database, Executor } from '../../db/database.js'
import type { RolesTable } from '../../db/schema.js'
import { isUniqueViolation } from '../../db/errors.js'
import { recordEvent } from '../../events/index.js'
import { ApiError } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import type { Actor } from '../actor.js'
import { recordAuditEntry } from '../audit-log/audit-log.service.js'
import type { IdentityReferences } from '../identity-references.js'
import { forgetCachedGrants } from '../authenticate.js'
import { PERMISSIONS, type Permission } from '../permissions.js'
import { assertMayGrant } from '../privileges.js'
import { userRepo } from '../users/user.repo.js'
import { roleRepo, toRole } from './role.repo.js'
import { ROLE_PATCH_RULES, RoleEditable, type CreateRole, type Role, type RoleListQuery } from './role.schemas.js'

export const ROLES = 'roles'
const applyPatch = createPatcher(RoleEditable, ROLE_PATCH_RULES)

/** Stored in the catalogue's order, so equal sets look equal. */
function canonical(permissions: readonly string[]): Permission[] {
  return PERMISSIONS.filter((permission) => permissions.includes(permission))
}

function nameTaken(error: unknown, name: string): ApiError | undefined {
  if (!isUniqueViolation(error)) return undefined
  return new ApiError('conflict', `The organization already has a role named "${name}"`)
}

function assertCustom(role: RolesTable, action: string): void {
  if (role.builtin !== null) {
    throw new ApiError('conflict', `The built-in role "${role.name}" is read-only and cannot be ${action}; create a custom role instead`)
  }
}

export function createRoleService(database: Database, references: IdentityReferences) {
  async function load(db: Executor, organizationId: string, id: string): Promise<RolesTable> {
    return requireLive(await roleRepo.find(db, organizationId, id), 'role', { id })
  }

  return {
    /**
     * Creates a custom role; it never holds owner rights.
     * @throws ApiError forbidden (403: permissions the actor lacks), conflict (409: name taken).
     */
    async create(ctx: CommandContext, input: CreateRole): Promise<Role> {
      const { organizationId } = ctx.actor
      const permissions = canonical(input.permissions)
      assertMayGrant(ctx.actor, { name: input.name, owner: false, permissions }, 'create')
      try {
        return await ctx.transaction(async (trx) => {
          const now = nowIso()
          const row: RolesTable = {
            id: newId(),
            organization_id: organizationId,
            name: input.name,
            builtin: null,
            owner: 0,
            permissions: JSON.stringify(permissions),
            description: input.description ?? null,
            version: 1,
            created: now,
            updated: now,
            deleted_at: null,
          }
          await roleRepo.insert(trx, row)
          const role = toRole(row)
          await recordEvent(trx, { organizationId, entityType: ROLES, entityId: row.id, type: 'CREATED', name: 'CREATED', originator: ctx.actor.userId, entity: role })
          await recordAuditEntry(trx, ctx, { action: 'roles.create', resourceType: ROLES, resourceId: row.id, after: role })
          return role
        })
      } catch (error) {
        throw nameTaken(error, input.name) ?? error
      }
    },

    /** @throws ApiError not_found (404), gone (410). */
    async get(actor: Actor, id: string): Promise<Role> {
      return toRole(await load(database.db, actor.organizationId, id))
    },

    /** Oldest first, the built-in roles leading. @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: RoleListQuery): Promise<ListEnvelopeOf<Role>> {
      const page = pageRequest(query, ROLES, {}, ['text'])
      const rows = await roleRepo.list(database.db, actor.organizationId, page)
      return pageOf(rows, page, (row) => [row.id], toRole)
    },

    /**
     * Applies a JSON Patch to a custom role if `etag` is current. Its holders get the new permissions
     * with their next request (cached grants of this process are dropped).
     * @throws ApiError not_found (404), gone (410), conflict (409: built-in role, name taken),
     * precondition_failed (412), invalid_patch (400), forbidden (403: permissions the actor lacks).
     */
    async update(ctx: CommandContext, id: string, etag: string, operations: JsonPatchOperation[]): Promise<Role> {
      const { organizationId } = ctx.actor
      let name = ''
      try {
        const role = await ctx.transaction(async (trx) => {
          const current = await load(trx, organizationId, id)
          assertCustom(current, 'changed')
          assertEtag(etag, etagOf(current.version))
          const patched = applyPatch(
            {
              name: current.name,
              permissions: canonical(JSON.parse(current.permissions) as string[]),
              ...(current.description !== null ? { description: current.description } : {}),
            },
            operations,
          )
          name = patched.name
          const permissions = canonical(patched.permissions)
          assertMayGrant(ctx.actor, { name: patched.name, owner: false, permissions }, 'change')
          const changes = {
            name: patched.name,
            permissions: JSON.stringify(permissions),
            description: patched.description ?? null,
            version: current.version + 1,
            updated: nowIso(),
          }
          if (!(await roleRepo.update(trx, id, current.version, changes))) {
            await load(trx, organizationId, id)
            throw new ApiError('precondition_failed', 'The role changed while this request ran; fetch it again')
          }
          const updated = toRole({ ...current, ...changes })
          await recordEvent(trx, { organizationId, entityType: ROLES, entityId: id, type: 'UPDATED', name: 'UPDATED', originator: ctx.actor.userId, entity: updated })
          await recordAuditEntry(trx, ctx, { action: 'roles.update', resourceType: ROLES, resourceId: id, before: toRole(current), after: updated })
          return updated
        })
        forgetCachedGrants()
        return role
      } catch (error) {
        throw nameTaken(error, name) ?? error
      }
    },

    /**
     * Deletes a custom role nobody holds and no live approval chain names; afterwards it answers 410.
     * @throws ApiError not_found (404), gone (410), conflict (409: built-in, held by users, named by a chain),
     * precondition_failed (412: `etag` is stale).
     */
    async remove(ctx: CommandContext, id: string, etag: string): Promise<void> {
      const { organizationId } = ctx.actor
      await ctx.transaction(async (trx) => {
        const [locked] = await roleRepo.lockLive(trx, organizationId, [id])
        if (!locked) {
          await load(trx, organizationId, id)
          throw new ApiError('gone', `The role ${id} was deleted`)
        }
        assertCustom(locked, 'deleted')
        assertEtag(etag, etagOf(locked.version))
        const holders = await userRepo.countLiveWithRole(trx, id)
        if (holders > 0) {
          throw new ApiError('conflict', `The role "${locked.name}" is held by ${holders} user(s); give them another role first`)
        }
        const chains = await references.namesReferencing(trx, organizationId, id)
        if (chains.length > 0) {
          throw new ApiError('conflict', `The role "${locked.name}" is named by the ${references.referrer}(s) ${chains.map((c) => `"${c}"`).join(', ')}; change them first`)
        }
        const deleted = await roleRepo.markDeleted(trx, locked, nowIso())
        await recordEvent(trx, { organizationId, entityType: ROLES, entityId: id, type: 'DELETED', name: 'DELETED', originator: ctx.actor.userId, entity: toRole({ ...deleted, name: locked.name }) })
        await recordAuditEntry(trx, ctx, { action: 'roles.delete', resourceType: ROLES, resourceId: id, before: toRole(locked) })
      })
    },
  }
}
