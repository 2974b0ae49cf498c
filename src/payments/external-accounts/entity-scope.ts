/**
 * reference §2.5 and §2.6 entityIds: the entities of the organization a counterparty is scoped to, stored on the
 * counterparty as a JSON array, and inherited read-only by its external accounts. None shown when the
 * counterparty serves the whole organization (the array is empty).
 */
export function entityScope(storedEntityIds: string): { entityIds?: string[] } {
  const entityIds = JSON.parse(storedEntityIds) as string[]
  return entityIds.length > 0 ? { entityIds } : {}
}
