import type { CompiledQuery } from 'kysely'
import type { Executor } from '../db/database.js'
import type { WebhooksTable } from '../db/schema.js'
import type { Event } from '../events/event.schemas.js'
import { deliveryRepo, type NewDelivery } from './delivery.repo.js'
import { webhookRepo } from './webhook.repo.js'
import type { WebhookFilter } from './webhook.schemas.js'

/** What a webhook delivery POSTs (reference §5.2): the entity as it was right after the event. */
export interface WebhookPayload {
  resource: string
  apiVersion: number
  event: Event
  entity: unknown
}

/** The filter entry under which `filter` wants events of `resource` named `event`, if any. */
export function matchingFilter(filter: readonly WebhookFilter[], resource: string, event: Pick<Event, 'type' | 'name'>): WebhookFilter | undefined {
  return filter.find(
    (entry) => entry.resource === resource && (entry.events === undefined || entry.events.includes(event.type) || entry.events.includes(event.name)),
  )
}

export function deliveryOf(webhookId: string, resource: string, apiVersion: number, event: Event, entity: unknown): NewDelivery {
  const payload: WebhookPayload = { resource, apiVersion, event, entity }
  return {
    organization_id: event.organizationId,
    webhook_id: webhookId,
    resource,
    entity_id: event.entityId,
    sequence: event.id,
    event_type: event.type,
    event_name: event.name,
    payload: JSON.stringify(payload),
  }
}

/** Deliveries per INSERT: well inside both databases' limits on bound parameters. */
const DELIVERY_CHUNK = 1_000

export interface RecordedEvent {
  event: Event
  entity: unknown
}

/** A live webhook as events are matched against it. */
export interface LiveWebhook {
  id: string
  filter: WebhookFilter[]
}

/** The rows of webhookRepo.listLive, their filters parsed. */
export function liveWebhooksOf(rows: readonly Pick<WebhooksTable, 'id' | 'filter'>[]): LiveWebhook[] {
  return rows.map((webhook) => ({ id: webhook.id, filter: JSON.parse(webhook.filter) as WebhookFilter[] }))
}

/** The read of the organization's live webhooks (liveWebhooksOf reads its rows), to run with others (runTogether). */
export function liveWebhooksStatement(trx: Executor, organizationId: string): CompiledQuery<Pick<WebhooksTable, 'id' | 'filter'>> {
  return webhookRepo.listLiveStatement(trx, organizationId)
}

/** The outbox write of one event for `webhooks` read beforehand, as statements to run with the event's insert (runTogether). */
export function deliveryStatements(trx: Executor, webhooks: readonly LiveWebhook[], resource: string, recorded: RecordedEvent): CompiledQuery[] {
  return deliveryRepo.enqueueStatements(trx, deliveriesOfEvent(webhooks, resource, recorded), recorded.event.timestamp)
}

/** The deliveries of one event: one per webhook whose filter wants it. */
function deliveriesOfEvent(webhooks: readonly LiveWebhook[], resource: string, { event, entity }: RecordedEvent): NewDelivery[] {
  return webhooks.flatMap((webhook) => {
    const entry = matchingFilter(webhook.filter, resource, event)
    return entry ? [deliveryOf(webhook.id, resource, entry.apiVersion, event, entity)] : []
  })
}

/**
 * The outbox write: one delivery per live webhook of the organization whose filter wants each
 * event, in the transaction that records the events, so events and their deliveries commit together
 * (or neither does). One read of the webhooks serves a whole batch (a 100,000-entry statement).
 * Nothing is sent here; the delivery worker POSTs after commit.
 */
export async function enqueueEventDeliveries(trx: Executor, organizationId: string, resource: string, recorded: readonly RecordedEvent[]): Promise<void> {
  if (recorded.length === 0) return
  const webhooks = liveWebhooksOf(await webhookRepo.listLive(trx, organizationId))
  if (webhooks.length === 0) return
  let deliveries: NewDelivery[] = []
  for (const one of recorded) {
    deliveries.push(...deliveriesOfEvent(webhooks, resource, one))
    if (deliveries.length >= DELIVERY_CHUNK) {
      await deliveryRepo.enqueue(trx, deliveries, one.event.timestamp)
      deliveries = []
    }
  }
  await deliveryRepo.enqueue(trx, deliveries, recorded[0]!.event.timestamp)
}
