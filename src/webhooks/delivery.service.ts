import type { Database } from '../db/database.js'
import { SYSTEM_ORIGINATOR, type Event } from '../events/event.schemas.js'
import { ApiError } from '../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../http/pagination.js'
import type { Actor } from '../iam/actor.js'
import { nowIso } from '../shared/clock.js'
import type { CommandContext } from '../shared/command-context.js'
import { newId } from '../shared/ids.js'
import { requireLive } from '../shared/lookup.js'
import { deliveryRepo, toDelivery } from './delivery.repo.js'
import type { DeliveryListQuery, WebhookDelivery } from './delivery.schemas.js'
import { deliveryOf } from './outbox.js'
import { webhookRepo } from './webhook.repo.js'
import type { TestEventBody, WebhookFilter } from './webhook.schemas.js'

/** The name of a test event: it happened to no entity. */
const TEST_EVENT_NAME = 'TEST'

export function createDeliveryService(database: Database) {
  async function requireWebhook(organizationId: string, id: string): Promise<void> {
    requireLive(await webhookRepo.find(database.db, organizationId, id), 'webhook', { id })
  }

  async function loadDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    const row = await deliveryRepo.find(database.db, webhookId, deliveryId)
    if (!row) throw new ApiError('not_found', `No delivery ${deliveryId} of webhook ${webhookId}`)
    return toDelivery(row, await deliveryRepo.attemptsOf(database.db, [row.id]))
  }

  return {
    /** The delivery log, newest first, each with its attempts. @throws ApiError not_found (404), gone (410), invalid_token (400). */
    async list(actor: Actor, webhookId: string, query: DeliveryListQuery): Promise<ListEnvelopeOf<WebhookDelivery>> {
      await requireWebhook(actor.organizationId, webhookId)
      const filters = { status: query.status }
      const page = pageRequest(query, `webhooks/${webhookId}/deliveries`, filters, ['text'])
      const rows = await deliveryRepo.list(database.db, webhookId, filters, page)
      const attempts = await deliveryRepo.attemptsOf(database.db, rows.slice(0, page.limit).map((row) => row.id))
      return pageOf(rows, page, (row) => [row.id], (row) => toDelivery(row, attempts.filter((attempt) => attempt.delivery_id === row.id)))
    },

    /** @throws ApiError not_found (404), gone (410). */
    async get(actor: Actor, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
      await requireWebhook(actor.organizationId, webhookId)
      return loadDelivery(webhookId, deliveryId)
    },

    /**
     * Sends a delivery again, whatever became of it: pending, due now, with a fresh retry window.
     * The body is the one first enqueued, so receivers can deduplicate it.
     * @throws ApiError not_found (404), gone (410: the webhook was deleted).
     */
    async redeliver(ctx: CommandContext, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
      await requireWebhook(ctx.actor.organizationId, webhookId)
      const row = await deliveryRepo.find(database.db, webhookId, deliveryId)
      if (!row) throw new ApiError('not_found', `No delivery ${deliveryId} of webhook ${webhookId}`)
      return ctx.transaction(async (trx) => {
        await deliveryRepo.redeliver(trx, row.id, nowIso())
        const updated = (await deliveryRepo.find(trx, webhookId, deliveryId))!
        return toDelivery(updated, await deliveryRepo.attemptsOf(trx, [row.id]))
      })
    },

    /**
     * Enqueues a test event (name TEST, originator KASSA) about a made-up entity of `resource`
     * (default: the webhook's first filtered resource), whatever the filter says, signed and
     * retried like any other delivery.
     * @throws ApiError not_found (404), gone (410).
     */
    async sendTestEvent(ctx: CommandContext, webhookId: string, body: TestEventBody | undefined): Promise<WebhookDelivery> {
      const webhook = requireLive(await webhookRepo.find(database.db, ctx.actor.organizationId, webhookId), 'webhook', { id: webhookId })
      const filter = JSON.parse(webhook.filter) as WebhookFilter[]
      const resource = body?.resource ?? filter[0]!.resource
      const apiVersion = filter.find((entry) => entry.resource === resource)?.apiVersion ?? 2
      const now = nowIso()
      const entity = { id: newId(), organizationId: webhook.organization_id, version: 1, created: now, updated: now }
      const event: Event = {
        id: 1,
        organizationId: webhook.organization_id,
        entityId: entity.id,
        type: 'CREATED',
        name: TEST_EVENT_NAME,
        timestamp: now,
        originator: SYSTEM_ORIGINATOR,
        message: 'A test event sent on request; no resource changed',
        entityVersion: 1,
      }
      return ctx.transaction(async (trx) => {
        const [row] = await deliveryRepo.enqueue(trx, [deliveryOf(webhook.id, resource, apiVersion, event, entity)], now)
        return toDelivery(row!, [])
      })
    },
  }
}

export type DeliveryService = ReturnType<typeof createDeliveryService>
