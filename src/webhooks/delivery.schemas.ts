import { Type, type Static } from 'typebox'
import { ListQueryProperties } from '../http/pagination.js'
import { ResourceId, Timestamp } from '../shared/common.schemas.js'

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'CANCELLED'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export const DeliveryAttempt = Type.Object({
  attempted: Timestamp,
  statusCode: Type.Optional(Type.Integer({ description: "The endpoint's HTTP status; absent when none came back" })),
  durationMilliseconds: Type.Integer({ minimum: 0 }),
  error: Type.Optional(Type.String({ description: 'Why the attempt did not acknowledge the event' })),
  responseExcerpt: Type.Optional(
    Type.String({
      description: "The start of the endpoint's answer: its first 1,024 bytes as UTF-8, invalid bytes replaced; absent when no answer or an empty one came back",
    }),
  ),
})
export type DeliveryAttempt = Static<typeof DeliveryAttempt>

/** One event sent (or to be sent) to one webhook, with every attempt so far, oldest first. */
export const WebhookDelivery = Type.Object({
  id: ResourceId,
  webhookId: ResourceId,
  resource: Type.String(),
  entityId: ResourceId,
  event: Type.Object({
    id: Type.Integer({ description: 'The event id, sequential per entity' }),
    type: Type.String(),
    name: Type.String(),
  }),
  status: Type.Enum([...DELIVERY_STATUSES], {
    description: 'PENDING until a 2xx (DELIVERED), or until retries run out (FAILED); CANCELLED when the webhook was deleted',
  }),
  attempts: Type.Array(DeliveryAttempt),
  nextAttempt: Type.Optional(Timestamp),
  created: Timestamp,
  updated: Timestamp,
  delivered: Type.Optional(Timestamp),
})
export type WebhookDelivery = Static<typeof WebhookDelivery>

export const DeliveryListQuery = Type.Object({
  ...ListQueryProperties,
  status: Type.Optional(Type.Enum([...DELIVERY_STATUSES])),
})
export type DeliveryListQuery = Static<typeof DeliveryListQuery>

export const DeliveryParams = Type.Object({ id: ResourceId, deliveryId: ResourceId })
