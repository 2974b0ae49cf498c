import type { Kysely } from 'kysely'

/**
 * Issue 14: rate limits hold across processes. Without Redis they are counted here: per limit, key, second and
 * process, each process adding its own counts in batches (http/rate-limits/database-store.ts). Rows older than a
 * window are deleted by the processes themselves; the index on the second serves that delete and the read of the
 * current window.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('limiter', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at_second', 'bigint', (c) => c.notNull())
    .addColumn('process', 'text', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_hits_pk', ['limiter', 'key', 'at_second', 'process'])
    .execute()
  await db.schema.createIndex('rate_limit_hits_at_second').on('rate_limit_hits').column('at_second').execute()
}
