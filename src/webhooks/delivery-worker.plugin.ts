import type { FastifyInstance } from 'fastify'
import { DELIVERY_DUE } from './delivery.repo.js'
import { createDeliveryWorker, type DeliveryWorker } from './delivery-worker.js'
import type { WebhookSettings } from './webhook.settings.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's webhook delivery worker: started when the app is ready (unless configured not to), stopped on close. */
    webhookDeliveries: DeliveryWorker
  }
}

/**
 * Runs the delivery worker with the app. A transaction of this process that enqueued a delivery nudges the
 * worker once it has committed (an API write, the payment worker's bank steps, an import), so it delivers
 * without waiting for its next poll — and a write that enqueued nothing costs the worker nothing (issue 14: no
 * "anything due?" read after every write). Writes of other processes and retries that come due are found by polling.
 */
export function registerDeliveryWorker(app: FastifyInstance, settings: WebhookSettings): void {
  const worker = createDeliveryWorker(app.database, settings, app.log)
  app.decorate('webhookDeliveries', worker)
  if (settings.startWorker) app.addHook('onReady', async () => worker.start())
  const stopListening = app.database.onCommit(DELIVERY_DUE, () => worker.nudge())
  app.addHook('onClose', () => {
    stopListening()
    return worker.stop()
  })
}
