import type { Executor } from '../../db/database.js'
import { lockEntity } from '../../financial-data/entities/index.js'

/**
 * The entities a counterparty is scoped to (reference §2.5 entityIds), as stored: each a live entity of the
 * organization, locked for the caller's transaction so none is deleted before it commits (an entity a live
 * counterparty is scoped to cannot be deleted), ids in lower case, each once, in the order given.
 * @throws ApiError invalid_request (400) naming entityIds: an id that is no live entity of the organization.
 */
export async function lockScope(trx: Executor, organizationId: string, entityIds: readonly string[] | undefined): Promise<string> {
  const ids = [...new Set((entityIds ?? []).map((id) => id.toLowerCase()))]
  // Locked in id order: two requests naming the same entities never wait on each other crosswise.
  for (const id of [...ids].sort()) await lockEntity(trx, organizationId, id, 'entityIds')
  return JSON.stringify(ids)
}
