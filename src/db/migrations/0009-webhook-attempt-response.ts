import { type Kysely } from 'kysely'

/**
 * Each webhook delivery attempt keeps the start of the endpoint's answer (issue 11: the delivery log
 * shows why an endpoint refused, not only its status). Nullable: earlier attempts have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_delivery_attempts').addColumn('response_excerpt', 'text').execute()
}
