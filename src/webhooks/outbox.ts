import type { Executor } from '../db/database.js'
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

/**
 * The outbox write: one delivery per live webhook of the event's organization whose filter wants
 * it, in the transaction that records the event, so an event and its deliveries commit together
 * (or neither does). Nothing is sent here; the delivery worker POSTs after commit.
 */
export async function enqueueEventDeliveries(trx: Executor, resource: string, event: Event, entity: unknown): Promise<void> {
  const webhooks = await webhookRepo.listLive(trx, event.organizationId)
  const deliveries: NewDelivery[] = []
  for (const webhook of webhooks) {
    const entry = matchingFilter(JSON.parse(webhook.filter) as WebhookFilter[], resource, event)
    if (entry) deliveries.push(deliveryOf(webhook.id, resource, entry.apiVersion, event, entity))
  }
  await deliveryRepo.enqueue(trx, deliveries, event.timestamp)
}
