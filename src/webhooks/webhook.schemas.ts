import { Type, type Static } from 'typebox'
import { ListQueryProperties } from '../http/pagination.js'
import { ResourceId, Timestamp, Version } from '../shared/common.schemas.js'

/** The resources whose events a webhook can subscribe to: the event log's entity types. */
export const WEBHOOK_RESOURCES = [
  'entities',
  'counterparties',
  'external_accounts',
  'transactions',
  'pending_transactions',
  'credit_transfers',
  'direct_debits',
  'mandates',
] as const
export type WebhookResource = (typeof WEBHOOK_RESOURCES)[number]

/** Entities are serialized as API v2 resources; v1 serializations do not exist in Kassa. */
export const WEBHOOK_API_VERSIONS = [2] as const

export const MAX_SIGNING_KEYS = 2

/** reference §5.1: one resource, the API version its entities are serialized in, and optionally which events. */
export const WebhookFilter = Type.Object(
  {
    resource: Type.Enum([...WEBHOOK_RESOURCES]),
    apiVersion: Type.Enum([...WEBHOOK_API_VERSIONS], { description: 'Serialization of the delivered entity; 2' }),
    events: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Z][A-Z0-9_]{0,63}$' }), {
        minItems: 1,
        maxItems: 50,
        description: 'Event types (CREATED, UPDATED, DELETED) or names (e.g. FULLY_APPROVED); omitted: every event',
      }),
    ),
  },
  { additionalProperties: false },
)
export type WebhookFilter = Static<typeof WebhookFilter>

/** POST /v1/webhooks and PUT /v1/webhooks/{id} (a full replacement: an omitted name is removed). */
export const WebhookInput = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'https URL of a public host; http and loopback only with KASSA_WEBHOOK_ALLOW_LOOPBACK=true',
    }),
    filter: Type.Array(WebhookFilter, { minItems: 1, maxItems: WEBHOOK_RESOURCES.length }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'ERP payment status',
        url: 'https://erp.example.com/kassa/webhooks',
        filter: [
          { resource: 'credit_transfers', apiVersion: 2, events: ['FULLY_APPROVED', 'EXECUTED', 'FAILED', 'RETURNED'] },
          { resource: 'transactions', apiVersion: 2 },
        ],
      },
    ],
  },
)
export type WebhookInput = Static<typeof WebhookInput>

/** A signing key as listed: its secret is shown only when it is made. */
export const WebhookKeyInfo = Type.Object({ id: ResourceId, created: Timestamp })

/** A signing key as made: `signingKey` is 32 random bytes, base64, and is never shown again. */
export const SigningKey = Type.Object({
  id: ResourceId,
  signingKey: Type.String({ description: 'Base64 of 32 bytes: the HMAC-SHA256 key of Webhook-Signature. Shown only now.' }),
  created: Timestamp,
})
export type SigningKey = Static<typeof SigningKey>

const WebhookFields = {
  id: ResourceId,
  organizationId: ResourceId,
  name: Type.Optional(Type.String()),
  url: Type.String(),
  filter: Type.Array(WebhookFilter),
  verified: Type.Boolean({ description: 'Always true: Kassa delivers to every URL that passes its checks' }),
  version: Version,
  created: Timestamp,
  updated: Timestamp,
}

/** reference §5.1, plus the ids of its signing keys (needed to rotate them). */
export const Webhook = Type.Object({ ...WebhookFields, keys: Type.Array(WebhookKeyInfo) })
export type Webhook = Static<typeof Webhook>

/** The answer to POST /v1/webhooks: the only time the first key's secret is shown. */
export const CreatedWebhook = Type.Object({ ...WebhookFields, keys: Type.Array(SigningKey) })
export type CreatedWebhook = Static<typeof CreatedWebhook>

export const WebhookListQuery = Type.Object(ListQueryProperties)
export type WebhookListQuery = Static<typeof WebhookListQuery>

export const WebhookParams = Type.Object({ id: ResourceId })
export const WebhookKeyParams = Type.Object({ id: ResourceId, keyId: ResourceId })

/** `POST /v1/webhooks/{id}:test`: which resource the test event claims to be about. */
export const TestEventBody = Type.Object(
  { resource: Type.Optional(Type.Enum([...WEBHOOK_RESOURCES])) },
  { additionalProperties: false, examples: [{ resource: 'credit_transfers' }] },
)
export type TestEventBody = Static<typeof TestEventBody>
