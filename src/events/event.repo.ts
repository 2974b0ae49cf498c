import { sql, type CompiledQuery } from 'kysely'
import type { Executor } from '../db/database.js'
import { preparedInsert, preparedQuery } from '../db/prepared-query.js'
import type { EventsTable } from '../db/schema.js'
import { keysetAfter, type PageRequest } from '../http/pagination.js'
import { nowIso } from '../shared/clock.js'
import { deliveryStatements, enqueueEventDeliveries, type LiveWebhook } from '../webhooks/index.js'
import type { Event, EventType } from './event.schemas.js'

export interface NewEvent {
  organizationId: string
  entityType: string
  entityId: string
  type: EventType
  name: string
  originator: string
  message?: string
  /** The entity as it is after the event, with its new version. */
  entity: { version: number }
  /** `entity` as JSON already, where the request's response serialized it (issue 14: one serialization, not two). */
  entityJson?: string
}

const nextSequence = preparedQuery((db, parameter: (name: 'entityId') => string) =>
  db.selectFrom('events').select(sql<number>`coalesce(max(sequence), 0) + 1`.as('next')).where('entity_id', '=', parameter('entityId')),
)

const insertEventRow = preparedInsert('events')
/** A new entity's first event, written with the entity's rows and answered with them (answeredWithNext). */
const insertFirstEventRow = preparedInsert('events', { answeredWithNext: true })

function eventRow(event: NewEvent, sequence: number): EventsTable {
  return {
    organization_id: event.organizationId,
    entity_type: event.entityType,
    entity_id: event.entityId,
    sequence,
    type: event.type,
    name: event.name,
    timestamp: nowIso(),
    originator: event.originator,
    message: event.message ?? null,
    entity_version: event.entity.version,
    entity: event.entityJson ?? JSON.stringify(event.entity),
  }
}

/**
 * Appends an event in the caller's transaction, so a change and its event commit together, and
 * enqueues its webhook deliveries in that same transaction (the outbox; sent after commit).
 * Sequence numbers are per entity; the entity's own row update serializes writers of one entity,
 * and the (entity_id, sequence) key refuses a duplicate should two ever race.
 */
export async function recordEvent(trx: Executor, event: NewEvent): Promise<void> {
  const [found] = await nextSequence(trx, { entityId: event.entityId })
  const row = eventRow(event, Number(found!.next))
  await insertEventRow(trx, row)
  await enqueueEventDeliveries(trx, event.organizationId, event.entityType, [{ event: toEvent(row), entity: event.entity }])
}

/**
 * recordEvent for an entity inserted in the same transaction: its first event (sequence 1, nothing to look up) and
 * its webhook deliveries to `webhooks` (the organization's live ones, read beforehand: liveWebhooksStatement), as
 * statements to run with the entity's own insert (runTogether).
 */
export function firstEventStatements(trx: Executor, event: NewEvent, webhooks: readonly LiveWebhook[]): CompiledQuery[] {
  const row = eventRow(event, 1)
  const insert = insertFirstEventRow.bind(trx, row)
  return webhooks.length === 0 ? [insert] : [insert, ...deliveryStatements(trx, webhooks, event.entityType, { event: toEvent(row), entity: event.entity })]
}

/** Events per INSERT: well inside both databases' limits on bound parameters. */
const EVENT_CHUNK = 2_000

/**
 * `recordEvent` for the first events of entities just created in bulk (the transactions of a bank
 * statement): each is sequence 1, so no per-entity lookup is needed, and rows go in multi-row
 * INSERTs with their webhook deliveries enqueued in one pass.
 */
export async function recordFirstEvents(trx: Executor, organizationId: string, entityType: string, events: readonly Omit<NewEvent, 'organizationId' | 'entityType'>[]): Promise<void> {
  const timestamp = nowIso()
  const rows: EventsTable[] = events.map((event) => ({
    organization_id: organizationId,
    entity_type: entityType,
    entity_id: event.entityId,
    sequence: 1,
    type: event.type,
    name: event.name,
    timestamp,
    originator: event.originator,
    message: event.message ?? null,
    entity_version: event.entity.version,
    entity: JSON.stringify(event.entity),
  }))
  for (let start = 0; start < rows.length; start += EVENT_CHUNK) {
    await trx.insertInto('events').values(rows.slice(start, start + EVENT_CHUNK)).execute()
  }
  await enqueueEventDeliveries(trx, organizationId, entityType, rows.map((row, index) => ({ event: toEvent(row), entity: events[index]!.entity })))
}

function toEvent(row: EventsTable): Event {
  return {
    id: row.sequence,
    organizationId: row.organization_id,
    entityId: row.entity_id,
    type: row.type,
    name: row.name,
    timestamp: row.timestamp,
    originator: row.originator,
    ...(row.message !== null ? { message: row.message } : {}),
    entityVersion: row.entity_version,
  }
}

/** Oldest first: the order in which they happened. Fetches `limit + 1` rows for the pager. */
export async function listEvents(
  db: Executor,
  organizationId: string,
  entityId: string,
  page: PageRequest,
): Promise<Event[]> {
  let query = db
    .selectFrom('events')
    .selectAll()
    .where('entity_id', '=', entityId)
    .where('organization_id', '=', organizationId)
  if (page.after) query = query.where(keysetAfter(['sequence'], 'asc', page.after))
  const rows = await query.orderBy('sequence', 'asc').limit(page.limit + 1).execute()
  return rows.map(toEvent)
}
