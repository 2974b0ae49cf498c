import { PostgresAdapter, sql, type CompiledQuery, type SelectQueryBuilder } from 'kysely'
import type { Dialect, Executor } from './database.js'
import { preparedStatement } from './prepared-query.js'

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

const advisoryLock = preparedStatement((db, parameter: (name: 'name') => string) => ({
  compile: () => sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtextextended(${parameter('name')}, 0)) as locked`.compile(db),
}))

/**
 * A lock named by `name`, taken until the transaction ends without waiting: the statement that takes it, to run with
 * the reads it guards (runTogether: on PostgreSQL one round trip), and `lockTaken` reads its answer — false when
 * another transaction holds it. PostgreSQL: a transaction-scoped advisory lock on the name's 64-bit hash (a collision
 * only makes a caller wait its turn). SQLite: undefined — every write transaction begins IMMEDIATE and so already
 * holds the one writer lock.
 */
export function transactionLockStatement(trx: Executor, dialect: Dialect, name: string): CompiledQuery<{ locked: boolean }> | undefined {
  return dialect === 'sqlite' ? undefined : advisoryLock.bind(trx, { name })
}

export function lockTaken(rows: readonly { locked: boolean }[]): boolean {
  return rows[0]?.locked === true
}

/**
 * The rows a query reads, kept from change until the transaction ends while other transactions may read and keep them
 * too. PostgreSQL: `FOR SHARE` — an UPDATE or delete of the row waits for the commit, and concurrent readers that share
 * it do not wait for each other (the write-of-nothing lock, `SET version = version`, serialized every credit transfer
 * to one external account: issue 14). SQLite: the transaction's writer lock already keeps every row.
 */
export function sharedUntilCommit<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, db: Executor): SelectQueryBuilder<DB, TB, O> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? query.forShare() : query
}
