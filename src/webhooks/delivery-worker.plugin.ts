import type { FastifyInstance } from 'fastify'
import { createDeliveryWorker, type DeliveryWorker } from './delivery-worker.js'
import type { WebhookSettings } from './webhook.settings.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's webhook delivery worker: started when the app is ready (unless configured not to), stopped on close. */
    webhookDeliveries: DeliveryWorker
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Runs the delivery worker with the app. A write answered over HTTP has committed by the time its
 * response is sent, so the worker is nudged then and delivers without waiting for its next poll;
 * writes of other processes and retries that come due are found by polling.
 */
export function registerDeliveryWorker(app: FastifyInstance, settings: WebhookSettings): void {
  const worker = createDeliveryWorker(app.database, settings, app.log)
  app.decorate('webhookDeliveries', worker)
  if (settings.startWorker) app.addHook('onReady', async () => worker.start())
  app.addHook('onClose', () => worker.stop())
  app.addHook('onResponse', (request, _reply, done) => {
    if (!READS.has(request.method)) worker.nudge()
    done()
  })
}
