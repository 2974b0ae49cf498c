import { expect } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/** Shared steps of the webhook tests. */

export const WEBHOOKS = '/v1/webhooks'

/** Delivery settings compressed for tests: retries within milliseconds, a short poll and lease. */
export const FAST_DELIVERY = {
  retry: { initialDelayMilliseconds: 20, maxDelayMilliseconds: 100, retryForMilliseconds: 60_000 },
  pollIntervalMilliseconds: 50,
  timeoutMilliseconds: 2_000,
  leaseMilliseconds: 5_000,
}

export function startWebhookTestApp(overrides: Parameters<typeof startTestApp>[0] = {}): Promise<TestApp> {
  return startTestApp({ webhookAllowLoopback: true, ...overrides, webhooks: { ...FAST_DELIVERY, ...overrides.webhooks } })
}

export interface CreatedWebhook {
  id: string
  url: string
  name?: string
  filter: Array<{ resource: string; apiVersion: number; events?: string[] }>
  keys: Array<{ id: string; signingKey: string; created: string }>
  version: number
}

export const ALL_RESOURCES = ['entities', 'counterparties', 'external_accounts', 'transactions', 'pending_transactions', 'credit_transfers', 'direct_debits', 'mandates'].map(
  (resource) => ({ resource, apiVersion: 2 }),
)

export async function createWebhook(t: TestApp, body: Record<string, unknown>, as?: Credentials): Promise<CreatedWebhook> {
  const response = await t.request({ method: 'POST', url: WEBHOOKS, body: { filter: ALL_RESOURCES, ...body }, as })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<CreatedWebhook>()
}

export function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status)
  const body = response.json<{ status: number; code: string; message: string; details?: Array<{ field: string; error: string }> }>()
  expect(body).toMatchObject({ status, code })
  return body
}

export interface Delivery {
  id: string
  status: string
  resource: string
  entityId: string
  event: { id: number; type: string; name: string }
  attempts: Array<{ attempted: string; statusCode?: number; durationMilliseconds: number; error?: string }>
  nextAttempt?: string
  delivered?: string
}

export async function deliveriesOf(t: TestApp, webhookId: string, query = ''): Promise<Delivery[]> {
  const response = await t.request({ method: 'GET', url: `${WEBHOOKS}/${webhookId}/deliveries?limit=500${query}` })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ items: Delivery[] }>().items
}

/** Polls the delivery log until `predicate` holds. */
export async function waitForDeliveries(t: TestApp, webhookId: string, predicate: (deliveries: Delivery[]) => boolean, timeoutMilliseconds = 10_000): Promise<Delivery[]> {
  const deadline = Date.now() + timeoutMilliseconds
  for (;;) {
    const deliveries = await deliveriesOf(t, webhookId)
    if (predicate(deliveries)) return deliveries
    if (Date.now() > deadline) throw new Error(`deliveries never reached the expected state: ${JSON.stringify(deliveries.map((d) => [d.status, d.attempts.length]))}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
