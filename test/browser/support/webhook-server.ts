import { startWebhookTestApp } from '../../webhooks/webhook-helpers.js'
import { startKassaServer, type KassaServer } from './kassa-server.js'

/**
 * A Kassa server for the browser (as startKassaServer) that may deliver webhooks to loopback over http
 * (KASSA_WEBHOOK_ALLOW_LOOPBACK=true), so a receiver on 127.0.0.1 stands for the endpoint, with the
 * webhook tests' compressed retries; `retryForMilliseconds` sets how long a failing delivery is retried.
 */
export function startWebhookKassaServer(retryForMilliseconds: number): Promise<KassaServer> {
  return startKassaServer(() =>
    startWebhookTestApp({ webhooks: { retry: { initialDelayMilliseconds: 20, maxDelayMilliseconds: 100, retryForMilliseconds } } }),
  )
}
