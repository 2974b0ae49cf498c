export { webhookRoutes } from './webhook.routes.js'
export { deliveryRoutes } from './delivery.routes.js'
export { registerDeliveryWorker } from './delivery-worker.plugin.js'
export { type DeliveryWorker } from './delivery-worker.js'
export { enqueueEventDeliveries, type WebhookPayload } from './outbox.js'
export { webhookSettings, type WebhookSettings, type WebhookSettingsInput } from './webhook.settings.js'
export { type RetrySchedule } from './retry-schedule.js'
export { type HostResolver } from './target-policy.js'
export {
  verifyWebhookSignature,
  signWebhookPayload,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type VerifyWebhookSignatureInput,
} from './signature.js'
