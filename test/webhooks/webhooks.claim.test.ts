import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/db/database.js'
import { createDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery-worker.js'
import { webhookSettings } from '../../src/webhooks/index.js'
import { counterpartyBody } from '../support/fixtures.js'
import type { TestApp } from '../support/test-app.js'
import { startReceiver, type Receiver } from './receiver.js'
import { createWebhook, FAST_DELIVERY, startWebhookTestApp } from './webhook-helpers.js'

/**
 * Several workers, each on its own connection pool as separate server processes would be, claim
 * from one outbox: every delivery is attempted exactly once, and each entity's events still
 * arrive in order.
 */

const WORKERS = 3
const COUNTERPARTIES = 30

let t: TestApp
let receiver: Receiver
const databases: Database[] = []
const workers: DeliveryWorker[] = []
const silent = { warn: () => undefined, error: () => undefined }

beforeAll(async () => {
  t = await startWebhookTestApp({ webhooks: { startWorker: false } })
  receiver = await startReceiver()
})
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()))
  await Promise.all(databases.map((database) => database.close()))
  await receiver.close()
  await t.close()
})

describe('webhook delivery: concurrent claimers', () => {
  it('attempts each delivery once across several workers, in per-entity order', async () => {
    await createWebhook(t, { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }, { resource: 'external_accounts', apiVersion: 2 }] })
    const created = []
    for (let i = 0; i < COUNTERPARTIES; i++) {
      const counterparty = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody({ legalName: `Claim ${i}` }) })).json()
      await t.request({
        method: 'PATCH',
        url: `/payments/v2/counterparties/${counterparty.id}`,
        headers: { 'if-match': counterparty.etag, 'content-type': 'application/json-patch+json' },
        body: JSON.stringify([{ op: 'replace', path: '/alias', value: `claim-${i}` }]),
      })
      created.push(counterparty.id as string)
    }
    const expected = COUNTERPARTIES * 3

    const settings = webhookSettings(true, { ...FAST_DELIVERY, concurrency: 4 })
    for (let i = 0; i < WORKERS; i++) {
      const database = openDatabase(t.db.url)
      databases.push(database)
      workers.push(createDeliveryWorker(database, settings, silent))
    }
    for (const worker of workers) worker.start()
    await receiver.waitFor((r) => r.length >= expected, 20_000)
    await Promise.all(workers.map((worker) => worker.stop()))
    // Closed now rather than in afterAll: pg's pool.end() resolves before its connections are gone,
    // and the test database is dropped WITH (FORCE) right after afterAll.
    await Promise.all(databases.splice(0).map((database) => database.close()))

    const keys = receiver.received.map((r) => `${r.json.event.entityId}/${r.json.event.id}`)
    expect(keys).toHaveLength(expected)
    expect(new Set(keys).size).toBe(expected)
    const attempts = await t.db.database.db.selectFrom('webhook_delivery_attempts').select(({ fn }) => fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
    expect(Number(attempts.count)).toBe(expected)
    for (const id of created) {
      const names = receiver.received.filter((r) => r.json.event.entityId === id).map((r) => r.json.event.name)
      expect(names).toEqual(['CREATED', 'UPDATED'])
    }
  })
})
