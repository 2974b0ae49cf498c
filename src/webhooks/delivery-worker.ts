import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/database.js'
import type { WebhookDeliveriesTable } from '../db/schema.js'
import { deliveryRepo, type AttemptRecord, type Outcome } from './delivery.repo.js'
import { createOutboundClient, type PostResult } from './outbound-http.js'
import { retryDelay } from './retry-schedule.js'
import { SIGNATURE_HEADER, signatureHeader, TIMESTAMP_HEADER, webhookTimestamp } from './signature.js'
import { parseTargetUrl, RefusedTarget, resolveTarget } from './target-policy.js'
import { webhookKeyRepo } from './webhook.repo.js'
import type { WebhookSettings } from './webhook.settings.js'

/**
 * The delivery side of the outbox: claims due deliveries (with a lease), POSTs each signed, and
 * records the attempt and its outcome. Runs in every server process; on PostgreSQL several claim
 * side by side (SKIP LOCKED), and a process that dies leaves leases that lapse into new claims.
 */
export interface DeliveryWorker {
  start(): void
  /** Look for due deliveries now: a commit may have enqueued some. */
  nudge(): void
  /** Stops claiming and waits for the attempts in flight (each ends within the timeout). */
  stop(): Promise<void>
}

type Logger = Pick<FastifyBaseLogger, 'warn' | 'error'>

interface Target {
  url: string
  keys: string[]
}

const USER_AGENT = 'Kassa-Webhooks/1'

export function createDeliveryWorker(database: Database, settings: WebhookSettings, log: Logger): DeliveryWorker {
  const client = createOutboundClient(settings.allowLoopback)
  const inFlight = new Set<Promise<void>>()
  let running = false
  let loopDone: Promise<void> = Promise.resolve()
  let nudged = false
  let wake: (() => void) | undefined

  function nudge(): void {
    nudged = true
    wake?.()
  }

  /** Sleeps until nudged, stopped, or the poll interval passes. */
  function idle(): Promise<void> {
    if (nudged || !running) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(done, settings.pollIntervalMilliseconds)
      timer.unref()
      function done() {
        clearTimeout(timer)
        wake = undefined
        resolve()
      }
      wake = done
    })
  }

  /** The URL and current keys of each live webhook among `webhookIds`; deleted ones are absent. */
  async function targetsOf(webhookIds: string[]): Promise<Map<string, Target>> {
    const rows = await database.db
      .selectFrom('webhooks')
      .select(['id', 'url'])
      .where('id', 'in', webhookIds)
      .where('deleted_at', 'is', null)
      .execute()
    const keys = await webhookKeyRepo.listOf(database.db, rows.map((row) => row.id))
    return new Map(rows.map((row) => [row.id, { url: row.url, keys: keys.filter((key) => key.webhook_id === row.id).map((key) => key.signing_key) }]))
  }

  async function send(delivery: WebhookDeliveriesTable, target: Target): Promise<PostResult> {
    let url: URL
    let addresses
    try {
      url = parseTargetUrl(target.url, settings.allowLoopback)
      addresses = await resolveTarget(url, settings)
    } catch (error) {
      if (!(error instanceof RefusedTarget)) throw error
      return { durationMilliseconds: 0, error: `refused: the URL ${error.message}` }
    }
    const timestamp = webhookTimestamp()
    const headers = {
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: signatureHeader(delivery.payload, timestamp, target.keys),
      'user-agent': USER_AGENT,
    }
    return client.post(url, addresses, delivery.payload, headers, settings.timeoutMilliseconds)
  }

  function outcomeOf(delivery: WebhookDeliveriesTable, result: PostResult): Outcome {
    if (result.error === undefined && result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300) {
      return { status: 'DELIVERED' }
    }
    const now = Date.now()
    if (now - Date.parse(delivery.retry_since) >= settings.retry.retryForMilliseconds) return { status: 'FAILED' }
    const delay = retryDelay(settings.retry, delivery.attempts + 1)
    return { status: 'PENDING', nextAttemptAt: new Date(now + delay).toISOString() }
  }

  async function attempt(delivery: WebhookDeliveriesTable, target: Target | undefined, token: string): Promise<void> {
    // Its webhook was deleted after the claim: the delete cancelled the delivery already.
    if (!target) return
    const attempted = new Date().toISOString()
    const result = await send(delivery, target)
    const record: AttemptRecord = { attempted, ...result }
    await deliveryRepo.finishAttempt(database, delivery, token, record, outcomeOf(delivery, result))
  }

  function track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => log.error({ err: error }, 'webhook delivery attempt failed to complete; its lease will lapse and it is retried'))
      .finally(() => {
        inFlight.delete(tracked)
        // Claim again once half the slots are free (one claim then fetches a batch), or at once
        // when the worker has gone idle: the next event of an entity may be waiting for this one.
        if (inFlight.size <= settings.concurrency / 2) nudge()
      })
    inFlight.add(tracked)
  }

  async function claimAndSend(): Promise<number> {
    const capacity = settings.concurrency - inFlight.size
    if (capacity <= 0) return 0
    const token = randomUUID()
    const now = Date.now()
    const claimed = await deliveryRepo.claim(
      database,
      token,
      new Date(now).toISOString(),
      new Date(now + settings.leaseMilliseconds).toISOString(),
      capacity,
    )
    if (claimed.length === 0) return 0
    const targets = await targetsOf([...new Set(claimed.map((delivery) => delivery.webhook_id))])
    for (const delivery of claimed) track(attempt(delivery, targets.get(delivery.webhook_id), token))
    return claimed.length === capacity ? claimed.length : 0
  }

  async function loop(): Promise<void> {
    while (running) {
      nudged = false
      let full = 0
      try {
        full = await claimAndSend()
      } catch (error) {
        if (running) log.warn({ err: error }, 'claiming webhook deliveries failed; retrying after the poll interval')
      }
      // A full batch suggests more are due: claim again as soon as capacity frees up.
      if (full > 0) nudged = inFlight.size < settings.concurrency
      await idle()
    }
  }

  return {
    start() {
      if (running) return
      running = true
      loopDone = loop()
    },
    nudge,
    async stop() {
      if (!running) return
      running = false
      wake?.()
      await loopDone
      await Promise.all([...inFlight])
      client.close()
    },
  }
}
