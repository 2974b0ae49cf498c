import type { SelectQueryBuilder } from 'kysely'
import type { Dialect } from './database.js'

/**
 * The rows a claim picks, locked so that concurrent claimers each get different ones. PostgreSQL:
 * `FOR UPDATE SKIP LOCKED` — a row another transaction is claiming is skipped, not waited for, so
 * several server processes claim side by side. SQLite has one writer at a time: the claiming
 * `UPDATE … RETURNING` around this subquery is atomic on its own.
 */
export function lockedSkippingLocked<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  dialect: Dialect,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate().skipLocked() : query
}
