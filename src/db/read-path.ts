import { ControlledTransaction, type CompiledQuery, type Kysely, type QueryResult } from 'kysely'
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

/**
 * How SQLite runs a transaction's statements: synchronously on the writing connection, the transaction's own, with no
 * trip through Kysely's executor — its connection lock, plugins and promises cost more than SQLite's own work for a
 * primary-key read or a one-row insert, about 1 µs a statement and some 17 statements a create (issue 14). Answers
 * as Kysely's SQLite connection does: a statement that returns rows answers its rows, any other its counts.
 */
export interface TransactionPath {
  /** Whether the connection has a transaction open: a transaction object used after its end goes through Kysely. */
  open(): boolean
  run(query: CompiledQuery): QueryResult<unknown>
}

type Adapter = ReturnType<Executor['getExecutor']>['adapter']

const transactionPaths = new WeakMap<Adapter, TransactionPath>()

/** Called once by openDatabase for a SQLite database's root Kysely instance, whose transactions share its adapter. */
export function registerTransactionPath(db: Executor, path: TransactionPath): void {
  transactionPaths.set(db.getExecutor().adapter, path)
}

/** The synchronous runner of `executor`'s statements when it is an open SQLite transaction; undefined otherwise. */
export function transactionPathOf(executor: Pick<Kysely<unknown>, 'isTransaction' | 'getExecutor'>): TransactionPath['run'] | undefined {
  if (!executor.isTransaction) return undefined
  // One that has ended goes through Kysely, which refuses it, even while the connection has another transaction open.
  if (executor instanceof ControlledTransaction && (executor.isCommitted || executor.isRolledBack)) return undefined
  const path = transactionPaths.get(executor.getExecutor().adapter)
  return path?.open() ? path.run : undefined
}

/** A statement on `executor`: by its transaction path when it is an open SQLite transaction, through Kysely otherwise. */
export async function executeStatement<Row>(executor: Pick<Kysely<unknown>, 'isTransaction' | 'getExecutor' | 'executeQuery'>, query: CompiledQuery<Row>): Promise<QueryResult<Row>> {
  const direct = transactionPathOf(executor)
  return direct ? (direct(query) as QueryResult<Row>) : executor.executeQuery(query)
}
