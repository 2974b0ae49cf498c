import type { Executor } from '../db/database.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../http/pagination.js'
import { listEvents } from './event.repo.js'
import type { Event } from './event.schemas.js'

/** `GET …/{id}/events` of any resource: the entity's events oldest first, paged by their integer sequence. */
export async function eventPage(
  db: Executor,
  organizationId: string,
  entityType: string,
  entityId: string,
  query: { limit?: number; token?: string },
): Promise<ListEnvelopeOf<Event>> {
  const page = pageRequest(query, `${entityType}/${entityId}/events`, {}, ['integer'])
  const events = await listEvents(db, organizationId, entityId, page)
  return pageOf(events, page, (event) => [event.id], (event) => event)
}
