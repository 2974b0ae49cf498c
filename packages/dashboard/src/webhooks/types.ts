import type { ListItem } from '@kassa/client'
import type { Tone } from '../ui/badge'

/** The API's webhook and delivery, as the generated client types them (from docs/openapi.json). */
export type Webhook = ListItem<'/v1/webhooks'>
export type WebhookFilter = Webhook['filter'][number]
export type WebhookResource = WebhookFilter['resource']
export type Delivery = ListItem<'/v1/webhooks/{id}/deliveries'>
export type DeliveryStatus = Delivery['status']

/** Every resource a webhook may subscribe to, in words; the type makes it list every one the API has. */
export const RESOURCE_LABEL: Record<WebhookResource, string> = {
  entities: 'Entities',
  counterparties: 'Counterparties',
  external_accounts: 'External accounts',
  transactions: 'Transactions',
  pending_transactions: 'Pending transactions',
  credit_transfers: 'Credit transfers',
  direct_debits: 'Direct debits',
  mandates: 'Mandates',
}

export const DELIVERY_STATUS: Record<DeliveryStatus, { label: string; tone: Tone }> = {
  PENDING: { label: 'Pending', tone: 'waiting' },
  DELIVERED: { label: 'Delivered', tone: 'good' },
  FAILED: { label: 'Failed', tone: 'bad' },
  CANCELLED: { label: 'Cancelled', tone: 'neutral' },
}

/** The API version webhooks deliver entities in (WEBHOOK_API_VERSIONS in src/webhooks/webhook.schemas.ts). */
export const API_VERSION = 2

/** The most signing keys a webhook holds at once (MAX_SIGNING_KEYS): one in use and its successor. */
export const MAX_SIGNING_KEYS = 2
