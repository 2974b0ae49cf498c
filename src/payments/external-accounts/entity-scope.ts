import { sql, type RawBuilder, type SqlBool } from 'kysely'

/**
 * reference §2.5 and §2.6 entityIds: the entities of the organization a counterparty is scoped to, stored on the
 * counterparty as a JSON array, and inherited read-only by its external accounts. None shown when the
 * counterparty serves the whole organization (the array is empty).
 */
export function entityScope(storedEntityIds: string): { entityIds?: string[] } {
  const entityIds = JSON.parse(storedEntityIds) as string[]
  return entityIds.length > 0 ? { entityIds } : {}
}

/**
 * reference §6 `entityIdsIn`: rows whose counterparty is scoped to at least one of `entityIds` (those serving the
 * whole organization are scoped to none, so they do not match). The stored array holds lower-case UUIDs as JSON
 * strings, so each id is found as its quoted text — the same SQL on both backends, and a UUID holds no LIKE wildcard.
 * @param column the counterparty's entity_ids column, as the query names it.
 */
export function scopedToAnyOf(column: string, entityIds: readonly string[]): RawBuilder<SqlBool> {
  const matches = entityIds.map((id) => sql<SqlBool>`${sql.ref(column)} like ${`%"${id.toLowerCase()}"%`}`)
  return sql<SqlBool>`(${sql.join(matches, sql` or `)})`
}
