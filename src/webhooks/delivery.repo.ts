import { sql, type CompiledQuery } from 'kysely'
import { lockedSkippingLocked } from '../db/claims.js'
import { raiseAfterCommit } from '../db/commit-signals.js'
import type { Database, Executor } from '../db/database.js'
import { preparedInsert, preparedQuery } from '../db/prepared-query.js'
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from '../db/schema.js'
import { keysetAfter, type PageRequest } from '../http/pagination.js'
import { nowIso } from '../shared/clock.js'
import { newId } from '../shared/ids.js'
import type { DeliveryStatus, WebhookDelivery } from './delivery.schemas.js'

/** Raised by a transaction that made a delivery due now: once it commits, this process's worker is nudged. */
export const DELIVERY_DUE = 'webhook-delivery-due'

export type NewDelivery = Pick<
  WebhookDeliveriesTable,
  'organization_id' | 'webhook_id' | 'resource' | 'entity_id' | 'sequence' | 'event_type' | 'event_name' | 'payload'
>

export interface AttemptRecord {
  attempted: string
  statusCode?: number
  durationMilliseconds: number
  error?: string
  responseExcerpt?: string
}

/** What an attempt leaves the delivery as: done, failed for good, or due again at `nextAttemptAt`. */
export type Outcome = { status: 'DELIVERED' } | { status: 'FAILED' } | { status: 'PENDING'; nextAttemptAt: string }

export function toDelivery(row: WebhookDeliveriesTable, attempts: WebhookDeliveryAttemptsTable[]): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    resource: row.resource,
    entityId: row.entity_id,
    event: { id: row.sequence, type: row.event_type, name: row.event_name },
    status: row.status,
    attempts: attempts.map((attempt) => ({
      attempted: attempt.attempted,
      ...(attempt.status_code !== null ? { statusCode: attempt.status_code } : {}),
      durationMilliseconds: attempt.duration_ms,
      ...(attempt.error !== null ? { error: attempt.error } : {}),
      ...(attempt.response_excerpt !== null ? { responseExcerpt: attempt.response_excerpt } : {}),
    })),
    ...(row.status === 'PENDING' ? { nextAttempt: row.next_attempt_at } : {}),
    created: row.created,
    updated: row.updated,
    ...(row.delivered_at !== null ? { delivered: row.delivered_at } : {}),
  }
}

/** New deliveries as stored: pending, due `now`. */
function deliveryRows(deliveries: NewDelivery[], now: string): WebhookDeliveriesTable[] {
  return deliveries.map((delivery) => ({
    ...delivery,
    id: newId(),
    status: 'PENDING',
    attempts: 0,
    next_attempt_at: now,
    retry_since: now,
    locked_until: null,
    claim_token: null,
    created: now,
    updated: now,
    delivered_at: null,
  }))
}

// Only enqueueStatements' rows, written beside their event's: answered with the transaction's next statement too.
const insertDeliveryRow = preparedInsert('webhook_deliveries', { answeredWithNext: true })

/**
 * Deliveries due now, oldest due first: PENDING, their next attempt has come, no lease on them is
 * running, and each the first pending one of its entity for its webhook, so each endpoint gets an
 * entity's events in version order.
 */
function dueDeliveries(db: Executor, now: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .select('d.id')
    .where('d.status', '=', 'PENDING')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as e')
            .select(sql`1`.as('one'))
            .whereRef('e.webhook_id', '=', 'd.webhook_id')
            .whereRef('e.entity_id', '=', 'd.entity_id')
            .where('e.status', '=', 'PENDING')
            .whereRef('e.sequence', '<', 'd.sequence'),
        ),
      ),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
}

const anyDue = preparedQuery((db, parameter: (name: 'now') => string) => dueDeliveries(db, parameter('now')).limit(1))

export const deliveryRepo = {
  /** Enqueues, in the caller's transaction: due at once, not claimed. */
  async enqueue(trx: Executor, deliveries: NewDelivery[], now: string): Promise<WebhookDeliveriesTable[]> {
    if (deliveries.length === 0) return []
    const rows = deliveryRows(deliveries, now)
    await trx.insertInto('webhook_deliveries').values(rows).execute()
    raiseAfterCommit(trx, DELIVERY_DUE)
    return rows
  },

  /** enqueue as statements to run with the event's own insert (runTogether): a few deliveries, one row each. */
  enqueueStatements(trx: Executor, deliveries: NewDelivery[], now: string): CompiledQuery[] {
    if (deliveries.length === 0) return []
    raiseAfterCommit(trx, DELIVERY_DUE)
    return deliveryRows(deliveries, now).map((row) => insertDeliveryRow.bind(trx, row))
  },

  /**
   * Claims up to `limit` due deliveries (see dueDeliveries) for `token` until `leaseUntil`. One
   * statement: PostgreSQL locks the picked rows and skips rows other claimers hold (SKIP LOCKED);
   * SQLite runs it under its single write lock. A lease that lapses (its process died mid-delivery)
   * makes the delivery claimable again: at least once, never lost.
   */
  async claim(database: Database, token: string, now: string, leaseUntil: string, limit: number): Promise<WebhookDeliveriesTable[]> {
    const { db } = database
    // The worker claims after every write request; most find nothing due. Asking first on the read
    // path spares SQLite a write transaction (about 140 µs) and PostgreSQL a locking UPDATE.
    if ((await anyDue(db, { now })).length === 0) return []
    return db
      .updateTable('webhook_deliveries')
      .set({ locked_until: leaseUntil, claim_token: token })
      .where('id', 'in', lockedSkippingLocked(dueDeliveries(db, now).limit(limit), database.dialect))
      .returningAll()
      .execute()
  },

  /**
   * Logs an attempt and applies its outcome, in one transaction. The outcome only lands while the
   * claim is still ours: after a lapsed lease another worker may own the delivery.
   */
  async finishAttempt(database: Database, delivery: WebhookDeliveriesTable, token: string, attempt: AttemptRecord, outcome: Outcome): Promise<void> {
    await database.transaction(async (trx) => {
      await trx
        .insertInto('webhook_delivery_attempts')
        .values({
          id: newId(),
          delivery_id: delivery.id,
          attempted: attempt.attempted,
          status_code: attempt.statusCode ?? null,
          duration_ms: attempt.durationMilliseconds,
          error: attempt.error ?? null,
          response_excerpt: attempt.responseExcerpt ?? null,
        })
        .execute()
      const now = nowIso()
      await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: outcome.status,
          attempts: eb('attempts', '+', 1),
          ...(outcome.status === 'PENDING' ? { next_attempt_at: outcome.nextAttemptAt } : {}),
          ...(outcome.status === 'DELIVERED' ? { delivered_at: now } : {}),
          locked_until: null,
          claim_token: null,
          updated: now,
        }))
        .where('id', '=', delivery.id)
        .where('claim_token', '=', token)
        .execute()
    })
  },

  async find(db: Executor, webhookId: string, id: string): Promise<WebhookDeliveriesTable | undefined> {
    return db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', id).executeTakeFirst()
  },

  /** Newest first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, webhookId: string, filters: { status?: DeliveryStatus }, page: PageRequest): Promise<WebhookDeliveriesTable[]> {
    let query = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId)
    if (filters.status) query = query.where('status', '=', filters.status)
    if (page.after) query = query.where(keysetAfter(['id'], 'desc', page.after))
    return query.orderBy('id', 'desc').limit(page.limit + 1).execute()
  },

  /** Oldest first. */
  async attemptsOf(db: Executor, deliveryIds: string[]): Promise<WebhookDeliveryAttemptsTable[]> {
    if (deliveryIds.length === 0) return []
    return db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('id', 'asc').execute()
  },

  /** Pending again, due now, with a fresh retry window; its attempts so far stay in the log. */
  async redeliver(trx: Executor, id: string, now: string): Promise<void> {
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'PENDING', next_attempt_at: now, retry_since: now, delivered_at: null, updated: now })
      .where('id', '=', id)
      .execute()
    raiseAfterCommit(trx, DELIVERY_DUE)
  },

  /** A deleted webhook's pending deliveries are cancelled; a claim in flight loses its right to record an outcome. */
  async cancelPending(trx: Executor, webhookId: string, now: string): Promise<void> {
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'CANCELLED', locked_until: null, claim_token: null, updated: now })
      .where('webhook_id', '=', webhookId)
      .where('status', '=', 'PENDING')
      .execute()
  },
}
