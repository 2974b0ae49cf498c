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

/** The measures of a table, each an aggregate over a column when the table has it (`rows` always). */
const MEASURES: Array<{ measure: string; column?: string; aggregate: (column: string) => string }> = [
  { measure: 'rows', aggregate: () => 'count(*)' },
  { measure: 'versions', column: 'version', aggregate: (column) => `coalesce(sum(${column}), 0)` },
  { measure: 'updated', column: 'updated', aggregate: (column) => `max(${column})` },
  { measure: 'deleted_at', column: 'deleted_at', aggregate: (column) => `count(${column})` },
  { measure: 'revoked_at', column: 'revoked_at', aggregate: (column) => `count(${column})` },
]

export async function fingerprinter(database: Database): Promise<() => Promise<Fingerprint>> {
  const tables = (await database.db.introspection.getTables()).filter((table) => !BOOKKEEPING.has(table.name))
  // One row per table, its measures as text (null where the table lacks the column), in one UNION ALL: PostgreSQL
  // plans it several times faster than one subquery per measure.
  const selects = tables.map((table) => {
    const columns = new Set(table.columns.map((column) => column.name))
    const values = MEASURES.map(({ measure, column, aggregate }) => `${column === undefined || columns.has(column) ? `cast(${aggregate(column ?? '')} as text)` : 'null'} as "${measure}"`)
    return `select '${table.name}' as "table", ${values.join(', ')} from "${table.name}"`
  })
  const query = sql<Record<string, string | null>>`${sql.raw(selects.join(' union all '))}`
  const measured = new Map(tables.map((table) => [table.name, new Set(table.columns.map((column) => column.name))]))
  return async () => {
    const { rows } = await query.execute(database.db)
    const fingerprint: Fingerprint = {}
    for (const row of rows) {
      const columns = measured.get(String(row.table))!
      for (const { measure, column } of MEASURES) if (column === undefined || columns.has(column)) fingerprint[`${row.table}.${measure}`] = String(row[measure])
    }
    return fingerprint
  }
}

/** The entries that differ, as `table.measure: before → after`. */
export function fingerprintChanges(before: Fingerprint, after: Fingerprint): string[] {
  return Object.keys(after)
    .filter((key) => before[key] !== after[key])
    .map((key) => `${key}: ${before[key]} → ${after[key]}`)
}
