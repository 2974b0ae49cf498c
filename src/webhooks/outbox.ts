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

/** Deliveries per INSERT: well inside both databases' limits on bound parameters. */
const DELIVERY_CHUNK = 1_000

export interface RecordedEvent {
  event: Event
  entity: unknown
}

/**
 * The outbox write: one delivery per live webhook of the organization whose filter wants each
 * event, in the transaction that records the events, so events and their deliveries commit together
 * (or neither does). One read of the webhooks serves a whole batch (a 100,000-entry statement).
 * Nothing is sent here; the delivery worker POSTs after commit.
 */
export async function enqueueEventDeliveries(trx: Executor, organizationId: string, resource: string, recorded: readonly RecordedEvent[]): Promise<void> {
  if (recorded.length === 0) return
  const webhooks = (await webhookRepo.listLive(trx, organizationId)).map((webhook) => ({
    id: webhook.id,
    filter: JSON.parse(webhook.filter) as WebhookFilter[],
  }))
  if (webhooks.length === 0) return
  let deliveries: NewDelivery[] = []
  for (const { event, entity } of recorded) {
    for (const webhook of webhooks) {
      const entry = matchingFilter(webhook.filter, resource, event)
      if (entry) deliveries.push(deliveryOf(webhook.id, resource, entry.apiVersion, event, entity))
    }
    if (deliveries.length >= DELIVERY_CHUNK) {
      await deliveryRepo.enqueue(trx, deliveries, event.timestamp)
      deliveries = []
    }
  }
  await deliveryRepo.enqueue(trx, deliveries, recorded[0]!.event.timestamp)
}
