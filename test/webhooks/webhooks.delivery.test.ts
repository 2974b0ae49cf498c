import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import type { TestApp } from '../support/test-app.js'
import { isSigned, startReceiver, type Received, type Receiver } from './receiver.js'
import { createWebhook, deliveriesOf, startWebhookTestApp, waitForDeliveries, WEBHOOKS } from './webhook-helpers.js'

let t: TestApp
let receiver: Receiver
const today = new Date().toISOString().slice(0, 10)

beforeAll(async () => {
  t = await startWebhookTestApp()
})
afterAll(() => t.close())
afterEach(async () => {
  // Each test's webhooks stop receiving, so later tests see only their own deliveries.
  const listed = (await t.request({ method: 'GET', url: `${WEBHOOKS}?limit=500` })).json()
  for (const webhook of listed.items) await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${webhook.id}` })
  await receiver?.close()
})

function eventsOf(received: Received[], entityId: string): string[] {
  return received.filter((r) => r.json.event.entityId === entityId).map((r) => `${r.json.event.id}:${r.json.event.name}`)
}

async function createCounterparty(): Promise<{ id: string; etag: string; accounts: Array<{ id: string }> }> {
  const response = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

describe('webhook delivery: the first-payment flow', () => {
  it('delivers entity, counterparty, credit transfer and pending transaction events in order, signed, with the entity after each event', async () => {
    receiver = await startReceiver()
    const webhook = await createWebhook(t, { url: receiver.url })
    const keys = webhook.keys.map((k) => k.signingKey)

    const entity = await t.request({ method: 'POST', url: '/financial-data/v2/entities', body: { legalName: 'Webhook Subsidiary AB' } })
    expect(entity.statusCode, entity.body).toBe(201)

    const counterparty = await createCounterparty()
    const updated = await t.request({
      method: 'PATCH',
      url: `/payments/v2/counterparties/${counterparty.id}`,
      headers: { 'if-match': counterparty.etag, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/legalName', value: 'Acme Holding GmbH' }]),
    })
    expect(updated.statusCode, updated.body).toBe(200)

    const source = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json().items[0].id
    const second = await createCounterparty()
    const transfer = await t.request({
      method: 'POST',
      url: '/payments/v2/credit-transfers',
      body: {
        amount: { currency: 'EUR', value: 12_500 },
        date: today,
        scheme: 'SCT',
        source: { type: 'ACCOUNT', id: source },
        destination: { type: 'EXTERNAL_ACCOUNT', id: second.accounts[0]!.id },
        reference: 'Invoice 2026-114',
      },
    })
    expect(transfer.statusCode, transfer.body).toBe(201)
    const payment = transfer.json()
    const approved = await t.request({
      method: 'POST',
      url: `/payments/v2/credit-transfers/${payment.id}:approve`,
      body: { approvalStepId: payment.approvalSteps[0].id },
    })
    expect(approved.statusCode, approved.body).toBe(202)
    const deleted = await t.request({ method: 'DELETE', url: `/payments/v2/counterparties/${counterparty.id}`, headers: { 'if-match': updated.json().etag } })
    expect(deleted.statusCode, deleted.body).toBe(204)

    // The payment goes on to the (sandbox) bank in the background; its webhooks follow it to RECONCILED.
    await receiver.waitFor(
      (r) =>
        eventsOf(r, counterparty.id).length >= 3 &&
        eventsOf(r, counterparty.accounts[0]!.id).length >= 2 &&
        eventsOf(r, payment.id).some((event) => event.endsWith(':RECONCILED')) &&
        // Deliveries keep order per entity, not across them: the booking's own may come after the payment's.
        r.some((one) => one.json.resource === 'transactions' && one.json.entity.attachedTransactables?.[0]?.id === payment.id) &&
        r.some((one) => one.json.resource === 'pending_transactions' && one.json.event.name === 'BOOKED'),
      15_000,
    )
    expect(eventsOf(receiver.received, entity.json().id)).toEqual(['1:CREATED'])
    expect(eventsOf(receiver.received, counterparty.id)).toEqual(['1:CREATED', '2:UPDATED', '3:DELETED'])
    expect(eventsOf(receiver.received, counterparty.accounts[0]!.id)).toEqual(['1:CREATED', '2:DELETED'])
    const logged = (await t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${payment.id}/events` })).json()
    const paymentEvents = logged.items.map((e: { id: number; name: string }) => `${e.id}:${e.name}`)
    expect(paymentEvents.slice(0, 2)).toEqual(['1:CREATED', '2:FULLY_APPROVED'])
    expect(paymentEvents.at(-1)).toMatch(/:RECONCILED$/)
    expect(eventsOf(receiver.received, payment.id)).toEqual(paymentEvents)
    const booked = receiver.received.find((r) => r.json.resource === 'transactions' && r.json.entity.attachedTransactables?.[0]?.id === payment.id)
    expect(booked?.json.entity).toMatchObject({ amount: { currency: 'EUR', value: -12_500 } })
    // The sandbox bank showed the debit pending between acceptance and booking; its booking ended it.
    const pending = receiver.received.find((r) => r.json.resource === 'pending_transactions' && r.json.event.name === 'BOOKED')!
    expect(pending.json.entity).toMatchObject({ status: 'BOOKED', bookedTransactionId: booked!.json.entity.id, amount: { value: -12_500 } })
    expect(eventsOf(receiver.received, pending.json.entity.id)).toEqual(['1:CREATED', '2:BOOKED'])

    for (const request of receiver.received) {
      expect(await isSigned(request, keys), request.body).toBe(true)
      expect(request.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/)
      expect(request.signature).toMatch(/^[0-9a-f]{64}$/)
      expect(request.headers['content-type']).toBe('application/json')
      expect(Object.keys(request.json).sort()).toEqual(['apiVersion', 'entity', 'event', 'resource'])
      expect(request.json.apiVersion).toBe(2)
      expect(request.json.entity.version).toBe(request.json.event.entityVersion)
    }
    const approval = receiver.received.find((r) => r.json.event.entityId === payment.id && r.json.event.name === 'FULLY_APPROVED')!
    expect(approval.json).toMatchObject({
      resource: 'credit_transfers',
      event: { type: 'UPDATED', organizationId: t.owner.organizationId, originator: t.owner.userId },
      entity: { id: payment.id, status: 'APPROVED', version: 2 },
    })
    const renamed = receiver.received.find((r) => r.json.event.entityId === counterparty.id && r.json.event.name === 'UPDATED')!
    expect(renamed.json).toMatchObject({ resource: 'counterparties', entity: { legalName: 'Acme Holding GmbH', version: 2 } })
  })
})

describe('webhook delivery: retries', () => {
  it('retries a failing receiver until it acknowledges, and logs every attempt', async () => {
    receiver = await startReceiver((_request, index) => (index < 3 ? 500 : 200))
    const webhook = await createWebhook(t, { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] })
    const counterparty = await createCounterparty()
    await receiver.waitFor((r) => r.length >= 4)
    expect(receiver.received.map((r) => r.json.event.entityId)).toEqual(Array(4).fill(counterparty.id))
    const [delivery] = await waitForDeliveries(t, webhook.id, ([d]) => d?.status === 'DELIVERED')
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 200])
    expect(delivery!.attempts[0]!.error).toBe('the endpoint answered 500')
    expect(delivery!.attempts[3]).not.toHaveProperty('error')
    expect(delivery).toMatchObject({ resource: 'counterparties', entityId: counterparty.id, event: { id: 1, type: 'CREATED', name: 'CREATED' } })
    expect(delivery!.delivered).toBeDefined()
    // Every attempt re-signs with a fresh timestamp; all verify.
    expect(new Set(receiver.received.map((r) => r.timestamp)).size).toBe(4)
    expect(await Promise.all(receiver.received.map((r) => isSigned(r, webhook.keys.map((k) => k.signingKey))))).toEqual([true, true, true, true])
  })

  it('holds later events of an entity back while an earlier one is being retried', async () => {
    let failing = true
    receiver = await startReceiver((request) => (failing && request.json.event.id === 1 ? 503 : 200))
    const webhook = await createWebhook(t, { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] })
    const counterparty = await createCounterparty()
    await t.request({
      method: 'PATCH',
      url: `/payments/v2/counterparties/${counterparty.id}`,
      headers: { 'if-match': counterparty.etag, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/alias', value: 'acme-2' }]),
    })
    await receiver.waitFor((r) => r.length >= 3)
    expect(receiver.received.every((r) => r.json.event.id === 1)).toBe(true)
    failing = false
    await receiver.waitFor((r) => r.some((x) => x.json.event.id === 2))
    const ids = receiver.received.map((r) => r.json.event.id)
    expect(ids.indexOf(2)).toBe(ids.lastIndexOf(1) + 1)
    await waitForDeliveries(t, webhook.id, (d) => d.length === 2 && d.every((x) => x.status === 'DELIVERED'))
  })

  it('marks a delivery FAILED when retries run out, and redelivers it on request', async () => {
    const app = await startWebhookTestApp({ webhooks: { retry: { initialDelayMilliseconds: 20, maxDelayMilliseconds: 40, retryForMilliseconds: 300 } } })
    try {
      receiver = await startReceiver(() => 500)
      const response = await app.request({ method: 'POST', url: WEBHOOKS, body: { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] } })
      const webhook = response.json()
      await app.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })
      const [failed] = await waitForDeliveries(app, webhook.id, ([d]) => d?.status === 'FAILED')
      expect(failed!.attempts.length).toBeGreaterThanOrEqual(2)
      expect(failed!.attempts.every((a) => a.statusCode === 500)).toBe(true)
      expect(failed).not.toHaveProperty('nextAttempt')
      expect((await deliveriesOf(app, webhook.id, '&status=FAILED')).map((d) => d.id)).toEqual([failed!.id])

      receiver.respond = () => 200
      const redelivered = await app.request({ method: 'POST', url: `${WEBHOOKS}/${webhook.id}/deliveries/${failed!.id}:redeliver` })
      expect(redelivered.statusCode, redelivered.body).toBe(202)
      expect(redelivered.json()).toMatchObject({ id: failed!.id, status: 'PENDING' })
      const [delivered] = await waitForDeliveries(app, webhook.id, ([d]) => d?.status === 'DELIVERED')
      expect(delivered!.attempts.length).toBe(failed!.attempts.length + 1)
      expect(delivered!.attempts.at(-1)!.statusCode).toBe(200)
      const bodies = new Set(receiver.received.map((r) => r.body))
      expect(bodies.size).toBe(1)
    } finally {
      await app.close()
    }
  })

  it('counts a receiver that does not answer in time as failed, and does not follow redirects', async () => {
    const app = await startWebhookTestApp({ webhooks: { timeoutMilliseconds: 200, leaseMilliseconds: 2_000 } })
    try {
      receiver = await startReceiver((_request, index) => (index === 0 ? 'hang' : index === 1 ? 302 : 200))
      const webhook = (await app.request({ method: 'POST', url: WEBHOOKS, body: { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] } })).json()
      await app.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })
      const [delivery] = await waitForDeliveries(app, webhook.id, ([d]) => d?.status === 'DELIVERED')
      expect(delivery!.attempts.map((a) => [a.statusCode, a.error])).toEqual([
        [undefined, 'no response within 200 ms'],
        [302, 'redirects are not followed'],
        [200, undefined],
      ])
      expect(delivery!.attempts[0]!.durationMilliseconds).toBeGreaterThanOrEqual(190)
      expect(receiver.received.map((r) => r.path)).toEqual(['/hooks', '/hooks', '/hooks'])
    } finally {
      await app.close()
    }
  })
})

describe('webhook delivery: keys, filters, log, test events', () => {
  it('signs with both keys during a rotation, and with the remaining one after', async () => {
    receiver = await startReceiver()
    const webhook = await createWebhook(t, { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] })
    const first = webhook.keys[0]!
    const second = (await t.request({ method: 'POST', url: `${WEBHOOKS}/${webhook.id}/keys` })).json()
    await createCounterparty()
    await receiver.waitFor((r) => r.length >= 1)
    const [signed] = receiver.received
    const signatures = signed!.signature.split(',')
    expect(signatures).toHaveLength(2)
    expect(await isSigned({ ...signed!, signature: signatures[0]! }, [first.signingKey])).toBe(true)
    expect(await isSigned({ ...signed!, signature: signatures[1]! }, [second.signingKey])).toBe(true)
    expect(await isSigned(signed!, [second.signingKey])).toBe(true)

    await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${webhook.id}/keys/${first.id}` })
    await createCounterparty()
    await receiver.waitFor((r) => r.length >= 2)
    const after = receiver.received[1]!
    expect(after.signature.split(',')).toHaveLength(1)
    expect(await isSigned(after, [second.signingKey])).toBe(true)
    expect(await isSigned(after, [first.signingKey])).toBe(false)
  })

  it('delivers only the resources and event names a filter asks for', async () => {
    receiver = await startReceiver()
    const counterpartiesOnly = await createWebhook(t, { url: `${receiver.url}/counterparties`, filter: [{ resource: 'counterparties', apiVersion: 2 }] })
    const deletions = await createWebhook(t, { url: `${receiver.url}/deleted`, filter: [{ resource: 'external_accounts', apiVersion: 2, events: ['DELETED'] }] })
    const counterparty = await createCounterparty()
    expect((await t.request({ method: 'DELETE', url: `/payments/v2/counterparties/${counterparty.id}`, headers: { 'if-match': counterparty.etag } })).statusCode).toBe(204)
    await receiver.waitFor((r) => r.length >= 3)
    await waitForDeliveries(t, deletions.id, (d) => d.length === 1 && d[0]!.status === 'DELIVERED')
    const seen = receiver.received.map((r) => `${r.path} ${r.json.resource} ${r.json.event.name}`).sort()
    expect(seen).toEqual([
      '/hooks/counterparties counterparties CREATED',
      '/hooks/counterparties counterparties DELETED',
      '/hooks/deleted external_accounts DELETED',
    ])
    expect(await deliveriesOf(t, counterpartiesOnly.id)).toHaveLength(2)
  })

  it('sends a test event on request, whatever the filter', async () => {
    receiver = await startReceiver()
    const webhook = await createWebhook(t, { url: receiver.url, filter: [{ resource: 'credit_transfers', apiVersion: 2, events: ['EXECUTED'] }] })
    const response = await t.request({ method: 'POST', url: `${WEBHOOKS}/${webhook.id}:test`, body: {} })
    expect(response.statusCode, response.body).toBe(202)
    expect(response.json()).toMatchObject({ status: 'PENDING', resource: 'credit_transfers', event: { name: 'TEST' } })
    await receiver.waitFor((r) => r.length >= 1)
    expect(receiver.received[0]!.json).toMatchObject({ resource: 'credit_transfers', apiVersion: 2, event: { name: 'TEST', type: 'CREATED', originator: 'KASSA' } })
    expect(await isSigned(receiver.received[0]!, [webhook.keys[0]!.signingKey])).toBe(true)
    const other = await t.request({ method: 'POST', url: `${WEBHOOKS}/${webhook.id}:test`, body: { resource: 'mandates' } })
    expect(other.json().resource).toBe('mandates')
    await receiver.waitFor((r) => r.length >= 2)
    const [delivery] = await waitForDeliveries(t, webhook.id, (d) => d.length === 2 && d.every((x) => x.status === 'DELIVERED'))
    expect(delivery).toMatchObject({ id: other.json().id, resource: 'mandates' })
    expect(delivery!.attempts[0]).toMatchObject({ statusCode: 200 })
    expect(delivery!.attempts[0]!.durationMilliseconds).toBeGreaterThanOrEqual(0)
  })

  it('shows one delivery, answers 404 for unknown ones, and cancels pending deliveries of a deleted webhook', async () => {
    receiver = await startReceiver(() => 500)
    const webhook = await createWebhook(t, { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }] })
    await createCounterparty()
    await receiver.waitFor((r) => r.length >= 1)
    const [pending] = await deliveriesOf(t, webhook.id)
    const one = await t.request({ method: 'GET', url: `${WEBHOOKS}/${webhook.id}/deliveries/${pending!.id}` })
    expect(one.json()).toMatchObject({ id: pending!.id, status: 'PENDING' })
    expect((await t.request({ method: 'GET', url: `${WEBHOOKS}/${webhook.id}/deliveries/01900000-0000-7000-8000-000000000000` })).statusCode).toBe(404)
    expect((await t.request({ method: 'POST', url: `${WEBHOOKS}/${webhook.id}/deliveries/01900000-0000-7000-8000-000000000000:redeliver` })).statusCode).toBe(404)

    await t.request({ method: 'DELETE', url: `${WEBHOOKS}/${webhook.id}` })
    const row = await t.db.database.db.selectFrom('webhook_deliveries').select(['status']).where('id', '=', pending!.id).executeTakeFirstOrThrow()
    expect(row.status).toBe('CANCELLED')
    const count = receiver.received.length
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(receiver.received.length).toBeLessThanOrEqual(count + 1)
  })
})
