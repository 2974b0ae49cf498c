import { sql } from 'kysely'
import type { Database } from '../../src/db/database.js'

/**
 * A cheap fingerprint of everything the API can write, to show that a refused request wrote nothing:
 * per table the row count, and where the table has them the sum of versions (every update bumps one),
 * the latest `updated`, and the number of deleted or revoked rows. One query, one round trip.
 *
 * idempotency_keys is left out: a request with an Idempotency-Key stores its answer, a 4xx included,
 * so that a retry replays it (src/idempotency/idempotency.hooks.ts) — that row is the refusal itself.
 * rate_limit_hits neither: every request counts against its rate limit, a refused one too (issue 14: the limits
 * shared by several processes, in the database when there is no Redis), and the counts are flushed in the background.
 */
const BOOKKEEPING = new Set(['idempotency_keys', 'rate_limit_hits', 'kysely_migration', 'kysely_migration_lock'])

export type Fingerprint = Record<string, string>

export async function fingerprinter(database: Database): Promise<() => Promise<Fingerprint>> {
  const tables = (await database.db.introspection.getTables()).filter((table) => !BOOKKEEPING.has(table.name))
  const parts: string[] = []
  for (const table of tables) {
    const columns = new Set(table.columns.map((column) => column.name))
    const from = `from "${table.name}"`
    parts.push(`(select count(*) ${from}) as "${table.name}.rows"`)
    if (columns.has('version')) parts.push(`(select coalesce(sum(version), 0) ${from}) as "${table.name}.versions"`)
    if (columns.has('updated')) parts.push(`(select max(updated) ${from}) as "${table.name}.updated"`)
    for (const column of ['deleted_at', 'revoked_at']) {
      if (columns.has(column)) parts.push(`(select count(${column}) ${from}) as "${table.name}.${column}"`)
    }
  }
  const query = sql<Record<string, unknown>>`select ${sql.raw(parts.join(', '))}`
  return async () => {
    const { rows } = await query.execute(database.db)
    return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([key, value]) => [key, String(value)]))
  }
}

/** The entries that differ, as `table.measure: before → after`. */
export function fingerprintChanges(before: Fingerprint, after: Fingerprint): string[] {
  return Object.keys(after)
    .filter((key) => before[key] !== after[key])
    .map((key) => `${key}: ${before[key]} → ${after[key]}`)
}
