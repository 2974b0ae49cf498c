import type { Database, Executor } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { EntitiesTable } from '../../db/schema.js'
import { eventPage, recordEvent, type Event } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import { lostRace } from '../../shared/lost-race.js'
import { entityRepo, toEntity, type EntityUsers } from './entity.repo.js'
import { isEquivalent, makesCycle } from './entity.rules.js'
import { ENTITY_PATCH_RULES, EntityEditable, type CreateEntity, type Entity, type EntityListQuery } from './entity.schemas.js'

export const ENTITIES = 'entities'
const applyPatch = createPatcher(EntityEditable, ENTITY_PATCH_RULES)

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value)
}

/** What keeps an entity from being deleted, in words; undefined when nothing does. */
function deletionBlocker(users: EntityUsers): string | undefined {
  if (users.accounts) return 'Accounts belong to this entity: move them to another (PATCH replace /entityId) before deleting it'
  if (users.children) return 'Other entities name this one as their parent: delete or move them first'
  if (users.counterparties) return 'Counterparties are scoped to this entity (entityIds): take it out of their entityIds first'
  return undefined
}

/**
 * A live entity of the organization that a request names (an account's entityId, a counterparty's entityIds, an
 * entity's parentId), locked for the caller's transaction so it cannot be deleted before the caller commits.
 * @throws ApiError invalid_request (400) naming `field`: no such live entity in this organization.
 */
export async function lockEntity(trx: Executor, organizationId: string, id: string, field: string): Promise<EntitiesTable> {
  const row = await entityRepo.lockLive(trx, organizationId, id.toLowerCase())
  if (!row) throw invalidField(field, `names no entity of this organization: ${id}`, 'not_found')
  return row
}

/**
 * The entity a new account belongs to when its request names none: the organization's default entity, its oldest
 * live entity without a parent (for a sandbox organization, the one it started with). Locked as lockEntity locks.
 * @throws ApiError invalid_request (400) naming `field`: the organization has no live root entity.
 */
export async function lockDefaultEntity(trx: Executor, organizationId: string, field: string): Promise<EntitiesTable> {
  const row = await entityRepo.lockDefault(trx, organizationId)
  if (!row) throw invalidField(field, 'is required: the organization has no entity without a parent to default to', 'required')
  return row
}

/** The entity an organization starts with, named as the organization, in the caller's transaction; its id. */
export async function createFirstEntity(trx: Executor, organizationId: string, legalName: string): Promise<string> {
  const now = nowIso()
  const id = newId()
  await entityRepo.insert(trx, {
    id,
    organization_id: organizationId,
    external_id: null,
    legal_name: legalName.slice(0, 255),
    parent_id: null,
    national_identifier: null,
    address: null,
    metadata: '{}',
    version: 1,
    created: now,
    updated: now,
    deleted_at: null,
  })
  return id
}

export function createEntityService(database: Database) {
  async function load(db: Executor, organizationId: string, ref: ResourceRef): Promise<EntitiesTable> {
    return requireLive(await entityRepo.find(db, organizationId, ref), 'entity', ref)
  }

  return {
    /**
     * Creates an entity, with its CREATED event — or, when a live entity equivalent to the request exists
     * (entity.rules isEquivalent), answers that one unchanged and tells the context so (200, not 201).
     * @throws ApiError invalid_request (400: parentId names no live entity of the organization), external_id_taken (409).
     */
    async create(ctx: CommandContext, input: CreateEntity): Promise<Entity> {
      const { organizationId } = ctx.actor
      try {
        return await ctx.transaction(async (trx) => {
          const parent = input.parentId === undefined ? undefined : await lockEntity(trx, organizationId, input.parentId, 'parentId')
          const equivalent = (await entityRepo.liveNamed(trx, organizationId, input.legalName)).map(toEntity).find((entity) => isEquivalent(entity, input))
          if (equivalent) {
            ctx.foundExisting?.()
            return equivalent
          }
          const now = nowIso()
          const row: EntitiesTable = {
            id: newId(),
            organization_id: organizationId,
            external_id: input.externalId ?? null,
            legal_name: input.legalName,
            parent_id: parent?.id ?? null,
            national_identifier: jsonOrNull(input.nationalIdentifier),
            address: jsonOrNull(input.address),
            metadata: JSON.stringify(input.metadata ?? {}),
            version: 1,
            created: now,
            updated: now,
            deleted_at: null,
          }
          await entityRepo.insert(trx, row)
          const entity = toEntity(row)
          await recordEvent(trx, { organizationId, entityType: ENTITIES, entityId: row.id, type: 'CREATED', name: 'CREATED', originator: ctx.actor.userId, entity })
          return entity
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError('external_id_taken', 'The externalId is already used by an entity of this organization')
        throw error
      }
    },

    /** @throws ApiError not_found (404), gone (410). */
    async get(actor: Actor, ref: ResourceRef): Promise<Entity> {
      return toEntity(await load(database.db, actor.organizationId, ref))
    },

    /** Live entities, oldest first. @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: EntityListQuery): Promise<ListEnvelopeOf<Entity>> {
      // Ids are stored in lower case; a query's may come in either (RFC 9562).
      const filters = { parentId: query.parentId?.toLowerCase() }
      const page = pageRequest(query, ENTITIES, filters, ['text'])
      const rows = await entityRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], toEntity)
    },

    /**
     * Applies a JSON Patch if `etag` is current. A new parent must be a live entity of the organization that is
     * neither this one nor below it.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412), invalid_patch (400), invalid_request
     * (400: the parentId names no live entity, or would make a cycle).
     */
    async update(ctx: CommandContext, ref: ResourceRef, etag: string, operations: JsonPatchOperation[]): Promise<Entity> {
      const { organizationId } = ctx.actor
      return ctx.transaction(async (trx) => {
        const current = toEntity(await load(trx, organizationId, ref))
        assertEtag(etag, current.etag)
        const patched = applyPatch(
          { legalName: current.legalName, parentId: current.parentId, nationalIdentifier: current.nationalIdentifier, address: current.address, metadata: current.metadata },
          operations,
        )
        let parentId = patched.parentId
        if (parentId !== undefined && parentId.toLowerCase() !== current.parentId) {
          await entityRepo.lockTree(trx, organizationId)
          parentId = (await lockEntity(trx, organizationId, parentId, 'parentId')).id
          if (makesCycle(await entityRepo.parents(trx, organizationId), current.id, parentId)) {
            throw invalidField('parentId', `would make a cycle: ${parentId} is this entity or lies below it`, 'cycle')
          }
        }
        const changes = {
          legal_name: patched.legalName,
          parent_id: parentId ?? null,
          national_identifier: jsonOrNull(patched.nationalIdentifier),
          address: jsonOrNull(patched.address),
          metadata: JSON.stringify(patched.metadata),
          version: current.version + 1,
          updated: nowIso(),
        }
        if (!(await entityRepo.update(trx, current.id, current.version, changes))) {
          await lostRace(() => entityRepo.find(trx, organizationId, ref), 'entity', ref)
        }
        const entity = toEntity(await load(trx, organizationId, { id: current.id }))
        await recordEvent(trx, { organizationId, entityType: ENTITIES, entityId: entity.id, type: 'UPDATED', name: 'UPDATED', originator: ctx.actor.userId, entity })
        return entity
      })
    },

    /**
     * Deletes the entity (softly: afterwards it answers 410) when nothing names it any more.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412: `etag` is stale), conflict (409:
     * accounts belong to it, child entities name it as their parent, or counterparties are scoped to it).
     */
    async remove(ctx: CommandContext, ref: ResourceRef, etag: string): Promise<void> {
      await ctx.transaction(async (trx) => {
        const { organizationId } = ctx.actor
        const { id } = await load(trx, organizationId, ref)
        // Marked deleted before If-Match is checked: the write waits for any concurrent writer of the row, so
        // the etag is compared with the version actually deleted, and a concurrent delete is a 410.
        const row = await entityRepo.markDeleted(trx, id, nowIso())
        if (!row) return lostRace(() => entityRepo.find(trx, organizationId, ref), 'entity', ref)
        assertEtag(etag, etagOf(row.version - 1))
        // Asked after the row is ours: whoever named the entity meanwhile locked it first (lockEntity), so it is seen here.
        const blocker = deletionBlocker(await entityRepo.users(trx, organizationId, id))
        if (blocker) throw new ApiError('conflict', blocker)
        await recordEvent(trx, { organizationId, entityType: ENTITIES, entityId: id, type: 'DELETED', name: 'DELETED', originator: ctx.actor.userId, entity: toEntity(row) })
      })
    },

    /** The entity's history, oldest first; also after it was deleted. @throws ApiError not_found (404), invalid_token (400). */
    async events(actor: Actor, ref: ResourceRef, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<Event>> {
      const row = await entityRepo.find(database.db, actor.organizationId, ref)
      if (!row) requireLive(row, 'entity', ref)
      return eventPage(database.db, actor.organizationId, ENTITIES, row!.id, query)
    },
  }
}
