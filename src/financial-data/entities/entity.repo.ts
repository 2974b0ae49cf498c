import type { Executor } from '../../db/database.js'
import type { EntitiesTable } from '../../db/schema.js'
import { containsText } from '../../db/text-search.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Address, NationalIdentifier } from '../../shared/common.schemas.js'
import type { Entity } from './entity.schemas.js'

export function toEntity(row: EntitiesTable): Entity {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    legalName: row.legal_name,
    ...(row.parent_id !== null ? { parentId: row.parent_id } : {}),
    ...(row.national_identifier !== null ? { nationalIdentifier: JSON.parse(row.national_identifier) as NationalIdentifier } : {}),
    ...(row.address !== null ? { address: JSON.parse(row.address) as Address } : {}),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

export type EntityChanges = Pick<EntitiesTable, 'legal_name' | 'parent_id' | 'national_identifier' | 'address' | 'metadata' | 'version' | 'updated'>

/** What still names an entity, so that it cannot be deleted (reference §2.10: no children, no accounts). */
export interface EntityUsers {
  accounts: boolean
  children: boolean
  counterparties: boolean
}

export const entityRepo = {
  async insert(trx: Executor, row: EntitiesTable): Promise<void> {
    await trx.insertInto('entities').values(row).execute()
  },

  /** Including deleted rows, so a deleted entity answers 410 rather than 404. */
  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<EntitiesTable | undefined> {
    const query = db.selectFrom('entities').selectAll().where('organization_id', '=', organizationId)
    return ('id' in ref ? query.where('id', '=', ref.id) : query.where('external_id', '=', ref.externalId)).executeTakeFirst()
  },

  /** The live entities of the organization with this legal name: the candidates for an equivalent create. */
  async liveNamed(db: Executor, organizationId: string, legalName: string): Promise<EntitiesTable[]> {
    return db
      .selectFrom('entities')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('legal_name', '=', legalName)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'asc')
      .execute()
  },

  /** Live entities, oldest first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: { parentId?: string }, page: PageRequest): Promise<EntitiesTable[]> {
    let query = db.selectFrom('entities').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null)
    if (filters.parentId) query = query.where('parent_id', '=', filters.parentId)
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },

  /** Each live entity of the organization with its parent's id (or null): the tree a new parent is checked against. */
  async parents(db: Executor, organizationId: string): Promise<Map<string, string | null>> {
    const rows = await db.selectFrom('entities').select(['id', 'parent_id']).where('organization_id', '=', organizationId).where('deleted_at', 'is', null).execute()
    return new Map(rows.map((row) => [row.id, row.parent_id]))
  },

  /** Writes the new state if the row is still live at `expectedVersion`; false when someone else wrote first. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: EntityChanges): Promise<boolean> {
    const result = await trx
      .updateTable('entities')
      .set(changes)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /**
   * The live entity, its row locked until the transaction ends (a write of nothing: both backends lock what they
   * update) — so a delete running at the same time either waits and then sees what the caller wrote (an account or
   * a child naming it), or commits first and this finds nothing.
   */
  async lockLive(trx: Executor, organizationId: string, id: string): Promise<EntitiesTable | undefined> {
    return trx
      .updateTable('entities')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  /**
   * The organization's default entity, locked as lockLive locks: its oldest live entity without a parent (ids are
   * time-ordered), which for an organization that never changed its entities is the one it started with.
   */
  async lockDefault(trx: Executor, organizationId: string): Promise<EntitiesTable | undefined> {
    const oldestRoot = trx
      .selectFrom('entities')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('parent_id', 'is', null)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'asc')
      .limit(1)
    return trx
      .updateTable('entities')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('id', '=', oldestRoot)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  /**
   * Makes changes to the organization's entity tree take turns (a write of nothing to the organization's row): two
   * re-parentings that are each fine alone could otherwise make a cycle together on PostgreSQL, each checking the
   * tree before the other's change commits.
   */
  async lockTree(trx: Executor, organizationId: string): Promise<void> {
    await trx.updateTable('organizations').set((eb) => ({ name: eb.ref('name') })).where('id', '=', organizationId).execute()
  },

  /** Marks a live entity deleted at any version, bumping it; the deleted row, or undefined if it was already gone. */
  async markDeleted(trx: Executor, id: string, now: string): Promise<EntitiesTable | undefined> {
    return trx
      .updateTable('entities')
      .set((eb) => ({ deleted_at: now, updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  /** Which of the organization's resources still name the entity: accounts, live child entities, live counterparties scoped to it. */
  async users(db: Executor, organizationId: string, id: string): Promise<EntityUsers> {
    const account = await db.selectFrom('accounts').select('id').where('entity_id', '=', id).limit(1).executeTakeFirst()
    const child = await db.selectFrom('entities').select('id').where('parent_id', '=', id).where('deleted_at', 'is', null).limit(1).executeTakeFirst()
    const counterparty = await db
      .selectFrom('counterparties')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      // entity_ids is a JSON array of ids: the quotes make it this whole id.
      .where(containsText('entity_ids', `"${id}"`))
      .limit(1)
      .executeTakeFirst()
    return { accounts: account !== undefined, children: child !== undefined, counterparties: counterparty !== undefined }
  },
}
