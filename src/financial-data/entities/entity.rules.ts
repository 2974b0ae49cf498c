import { isDeepStrictEqual } from 'node:util'
import type { CreateEntity, Entity } from './entity.schemas.js'

/**
 * The entity rules a schema cannot state: the tree (reference §2.10: an entity's parent is another entity —
 * following parents from any entity ends at a root, never back where it started), and when a create names an
 * entity that already exists.
 */

/**
 * Whether giving entity `id` the parent `parentId` would make a cycle: `parentId` is `id` itself, or `id` is
 * among the parent's ancestors.
 * @param parents every live entity of the organization with its current parent's id (null for a root).
 */
export function makesCycle(parents: ReadonlyMap<string, string | null>, id: string, parentId: string): boolean {
  const seen = new Set<string>()
  for (let current: string | null | undefined = parentId; current; current = parents.get(current)) {
    if (current === id) return true
    // A cycle already stored elsewhere (never written by Kassa) must not loop for ever.
    if (seen.has(current)) return false
    seen.add(current)
  }
  return false
}

/**
 * Whether a create request describes `entity` exactly (reference §1: `POST /financial-data/v2/entities` answers 200
 * with the existing entity when an equivalent one exists): every field the request gives equals the entity's, and
 * every field it leaves out is absent from the entity too (metadata left out is the empty object).
 */
export function isEquivalent(entity: Entity, request: CreateEntity): boolean {
  return (
    entity.legalName === request.legalName &&
    entity.externalId === request.externalId &&
    entity.parentId === request.parentId?.toLowerCase() &&
    isDeepStrictEqual(entity.nationalIdentifier, request.nationalIdentifier) &&
    isDeepStrictEqual(entity.address, request.address) &&
    isDeepStrictEqual(entity.metadata, request.metadata ?? {})
  )
}
