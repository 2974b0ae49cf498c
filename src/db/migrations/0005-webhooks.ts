import { sql, type Kysely } from 'kysely'

/**
 * Webhook subscriptions, their signing keys, and the transactional outbox of deliveries with the
 * log of every attempt. A delivery row is written in the transaction that records its event and
 * carries the exact body to POST; the worker claims due rows with a lease (locked_until, claim_token).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('filter', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute()
  await db.schema.createIndex('webhooks_org_id').on('webhooks').columns(['organization_id', 'id']).execute()

  await db.schema
    .createTable('webhook_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id'))
    .addColumn('signing_key', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webhook_keys_webhook').on('webhook_keys').columns(['webhook_id', 'id']).execute()

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id'))
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('retry_since', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('claim_token', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute()
  // The worker's scan: due PENDING rows. Partial, so delivered history does not weigh on it.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['next_attempt_at', 'id'])
    .where(sql<boolean>`status = 'PENDING'`)
    .execute()
  // Per-entity order per endpoint: "is an earlier delivery of this entity still pending?"
  await db.schema
    .createIndex('webhook_deliveries_entity')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'entity_id', 'sequence'])
    .execute()
  await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['webhook_id', 'id']).execute()

  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('attempted', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute()
  await db.schema
    .createIndex('webhook_delivery_attempts_delivery')
    .on('webhook_delivery_attempts')
    .columns(['delivery_id', 'id'])
    .execute()
}
