import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import type { TestApp } from '../support/test-app.js'
import { startReceiver, type Receiver } from './receiver.js'
import { createWebhook, startWebhookTestApp } from './webhook-helpers.js'

/**
 * Issue 14: the delivery worker is nudged by the commit of a transaction that enqueued a delivery, not by every
 * write. With a poll interval of a minute, only that nudge can deliver within seconds.
 */
let t: TestApp
let receiver: Receiver
beforeAll(async () => {
  t = await startWebhookTestApp({ paymentWorkerIntervalMilliseconds: false, webhooks: { pollIntervalMilliseconds: 60_000 } })
  receiver = await startReceiver()
})
afterAll(async () => {
  await t.close()
  await receiver.close()
})

describe('a committed write that enqueued a delivery', () => {
  it('is delivered at once, long before the next poll', async () => {
    await createWebhook(t, { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] })
    const started = Date.now()
    const created = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })
    expect(created.statusCode, created.body).toBe(201)
    await receiver.waitFor((received) => received.some((r) => r.json.event.entityId === created.json().id), 5_000)
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
