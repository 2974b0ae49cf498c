import type { CompiledQuery } from 'kysely'
import type { Dialect, Executor } from './database.js'

/**
 * How a database runs reads outside any transaction: SQLite synchronously, on the writing connection when it has no
 * transaction open and on a read-only connection of its own when it has (a read must not see another request's
 * open transaction); PostgreSQL through the pool.
 */
export interface ReadPath {
  dialect: Dialect
  read(query: CompiledQuery): unknown[] | Promise<unknown[]>
  /**
   * A number that changes whenever any connection (this process's writer, the CLI) commits a change;
   * SQLite's `PRAGMA data_version` on the read connection. PostgreSQL has no such cheap check.
   */
  dataVersion?(): number
}

const readPaths = new WeakMap<Executor, ReadPath>()

/** Called once by openDatabase for the database's root Kysely instance. */
export function registerReadPath(db: Executor, path: ReadPath): void {
  readPaths.set(db, path)
}

/** The read path of a database's root instance; undefined for a transaction, which reads through itself. */
export function readPathOf(executor: Executor): ReadPath | undefined {
  return readPaths.get(executor)
}
