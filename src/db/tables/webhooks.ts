/** Webhook subscriptions and their delivery outbox (webhooks/). Column conventions: see ../schema.ts. */

/** A webhook subscription; `filter` is the JSON array of {resource, apiVersion, events?}. */
export interface WebhooksTable {
  id: string
  organization_id: string
  name: string | null
  url: string
  filter: string
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

/** A signing key of a webhook: 32 random bytes, base64. Kept in clear, as HMAC signing needs it. */
export interface WebhookKeysTable {
  id: string
  webhook_id: string
  signing_key: string
  created: string
}

/** One event to POST to one webhook (the transactional outbox); `payload` is the exact body. */
export interface WebhookDeliveriesTable {
  id: string
  organization_id: string
  webhook_id: string
  resource: string
  entity_id: string
  /** The event's per-entity sequence: deliveries of one entity to one webhook go in this order. */
  sequence: number
  event_type: string
  event_name: string
  payload: string
  status: 'PENDING' | 'DELIVERED' | 'FAILED' | 'CANCELLED'
  attempts: number
  next_attempt_at: string
  /** When the current run of retries began (enqueued, or redelivered); retries stop a configured time after it. */
  retry_since: string
  /** While set and in the future, a worker holds the delivery; a lapsed lease makes it claimable again. */
  locked_until: string | null
  claim_token: string | null
  created: string
  updated: string
  delivered_at: string | null
}

export interface WebhookDeliveryAttemptsTable {
  id: string
  delivery_id: string
  attempted: string
  status_code: number | null
  duration_ms: number
  error: string | null
  /** Since migration 0009: the first 1,024 bytes of the answer as UTF-8 (issue 11). */
  response_excerpt: string | null
}
