import type { CompiledQuery } from 'kysely'
import type { Executor } from '../db/database.js'
import { preparedQuery } from '../db/prepared-query.js'
import type { WebhookKeysTable, WebhooksTable } from '../db/schema.js'
import { keysetAfter, type PageRequest } from '../http/pagination.js'
import type { Webhook, WebhookFilter } from './webhook.schemas.js'

export function toWebhook(row: WebhooksTable, keys: Pick<WebhookKeysTable, 'id' | 'created'>[]): Webhook {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.name !== null ? { name: row.name } : {}),
    url: row.url,
    filter: JSON.parse(row.filter) as WebhookFilter[],
    verified: true,
    version: row.version,
    created: row.created,
    updated: row.updated,
    keys: keys.map((key) => ({ id: key.id, created: key.created })),
  }
}

export type WebhookChanges = Pick<WebhooksTable, 'name' | 'url' | 'filter' | 'updated'>

const liveOf = preparedQuery((db, parameter: (name: 'organizationId') => string) =>
  db.selectFrom('webhooks').select(['id', 'filter']).where('organization_id', '=', parameter('organizationId')).where('deleted_at', 'is', null),
)

export const webhookRepo = {
  async insert(trx: Executor, row: WebhooksTable): Promise<void> {
    await trx.insertInto('webhooks').values(row).execute()
  },

  /** Including deleted rows, so a deleted webhook answers 410 rather than 404. */
  async find(db: Executor, organizationId: string, id: string): Promise<WebhooksTable | undefined> {
    return db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** The live webhooks of an organization: what an event is matched against. */
  async listLive(db: Executor, organizationId: string): Promise<Pick<WebhooksTable, 'id' | 'filter'>[]> {
    return liveOf(db, { organizationId })
  },

  /** listLive as a statement to run with others (runTogether). */
  listLiveStatement(db: Executor, organizationId: string): CompiledQuery<Pick<WebhooksTable, 'id' | 'filter'>> {
    return liveOf.bind(db, { organizationId })
  },

  /** Newest first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, page: PageRequest): Promise<WebhooksTable[]> {
    let query = db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null)
    if (page.after) query = query.where(keysetAfter(['id'], 'desc', page.after))
    return query.orderBy('id', 'desc').limit(page.limit + 1).execute()
  },

  /**
   * Bumps the version of a live webhook and applies `changes`. Being an UPDATE, it also takes the
   * row lock (PostgreSQL) that serializes key rotations of one webhook, so "at most two keys" holds
   * under concurrent requests. False when the webhook is gone.
   */
  async touch(trx: Executor, id: string, changes: Partial<WebhookChanges> & { updated: string }): Promise<boolean> {
    const result = await trx
      .updateTable('webhooks')
      .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  async markDeleted(trx: Executor, id: string, now: string): Promise<boolean> {
    const result = await trx
      .updateTable('webhooks')
      .set((eb) => ({ deleted_at: now, updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },
}

export const webhookKeyRepo = {
  async insert(trx: Executor, row: WebhookKeysTable): Promise<void> {
    await trx.insertInto('webhook_keys').values(row).execute()
  },

  /** Oldest first. */
  async listOf(db: Executor, webhookIds: string[]): Promise<WebhookKeysTable[]> {
    if (webhookIds.length === 0) return []
    return db.selectFrom('webhook_keys').selectAll().where('webhook_id', 'in', webhookIds).orderBy('id', 'asc').execute()
  },

  async remove(trx: Executor, webhookId: string, keyId: string): Promise<boolean> {
    const result = await trx.deleteFrom('webhook_keys').where('webhook_id', '=', webhookId).where('id', '=', keyId).executeTakeFirst()
    return Number(result.numDeletedRows) === 1
  },

  async removeAll(trx: Executor, webhookId: string): Promise<void> {
    await trx.deleteFrom('webhook_keys').where('webhook_id', '=', webhookId).execute()
  },
}
