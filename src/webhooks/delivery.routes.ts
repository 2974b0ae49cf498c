import type { ApiApp } from '../http/api-app.js'
import { commandContext } from '../http/command-context.js'
import { ListEnvelope } from '../http/pagination.js'
import { errorResponses } from '../http/route-schemas.js'
import { createDeliveryService } from './delivery.service.js'
import { DeliveryListQuery, DeliveryParams, WebhookDelivery } from './delivery.schemas.js'
import { WebhookParams } from './webhook.schemas.js'

const tags = ['Webhooks']
const BASE = '/v1/webhooks/:id/deliveries'

/** The delivery log of a webhook and redelivery. */
export function deliveryRoutes(app: ApiApp): void {
  const service = createDeliveryService(app.database)

  app.get(
    BASE,
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags,
        summary: 'The webhook’s deliveries, newest first, each with its attempts',
        description:
          'One delivery per event sent to the webhook; status filters them (PENDING, DELIVERED, FAILED, CANCELLED). ' +
          "Each attempt gives the endpoint's HTTP status and the time it took, or why it failed. 410 Gone once the " +
          'webhook was deleted.',
        params: WebhookParams,
        querystring: DeliveryListQuery,
        response: { 200: ListEnvelope(WebhookDelivery), ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.list(request.actor!, request.params.id, request.query),
  )

  app.get(
    `${BASE}/:deliveryId`,
    {
      config: { permission: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Get one delivery with its attempts',
        description:
          'A PENDING delivery gives its nextAttempt; it is retried with backoff until a 2xx acknowledges it (DELIVERED) ' +
          'or its retry window ends (FAILED). 410 Gone once the webhook was deleted.',
        params: DeliveryParams,
        response: { 200: WebhookDelivery, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.get(request.actor!, request.params.id, request.params.deliveryId),
  )

  app.post(
    `${BASE}/:deliveryId(^.+)::redeliver`,
    {
      config: { permission: 'webhooks:update' },
      schema: {
        tags,
        summary: 'Deliver again',
        description:
          'Whatever became of it, the delivery is PENDING and due now, with a fresh retry window; the body is the ' +
          'original one, so receivers can recognize it. No body. 410 Gone once the webhook was deleted.',
        params: DeliveryParams,
        response: { 202: WebhookDelivery, ...errorResponses(400, 403, 404, 410, 422, 425) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await service.redeliver(commandContext(request, reply, 202), request.params.id, request.params.deliveryId)),
  )
}
