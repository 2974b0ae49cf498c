import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import pg from 'pg'
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DialectAdapter,
  type DatabaseConnection,
  type QueryResult,
  type SqliteDatabase as KyselySqliteDatabase,
  type Transaction,
} from 'kysely'
import { DEFAULT_DATABASE_CONNECTIONS, type SqliteSynchronous } from '../config/config.js'
import { createCommitSignals, takeRaised, type CommitListener, type CommitSignals } from './commit-signals.js'
import { groupCommit } from './group-commit.js'
import type { DatabaseSchema } from './schema.js'
import { migrateToLatest } from './migrate.js'
import { registerReadPath, registerTransactionPath } from './read-path.js'
import { namedStatementPool } from './postgres-driver.js'
import { checkpointInBackground } from './sqlite-checkpointer.js'

export type Db = Kysely<DatabaseSchema>
/** Anything a repository can run SQL on: the database itself or an open transaction. */
export type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>
export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  db: Db
  dialect: Dialect
  /** Runs `work` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(work: (trx: Transaction<DatabaseSchema>) => Promise<T>): Promise<T>
  /** Calls `listener` after each committed transaction that raised `signal` (commit-signals.ts); returns its stop. */
  onCommit(signal: string, listener: CommitListener): () => void
  migrate(): Promise<string[]>
  ping(): Promise<void>
  close(): Promise<void>
}

/**
 * SQLite transactions start with BEGIN IMMEDIATE, taking the write lock up front:
 * a deferred transaction that reads first and writes later can fail with SQLITE_BUSY
 * when another process (the CLI beside the server) writes in between.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

/**
 * SQLite runs DDL inside transactions, so Kysely's migrator may apply pending migrations in one: BEGIN IMMEDIATE takes
 * the file's write lock before the migrator reads what is applied, so two processes starting together on an outdated
 * file run each migration once (the second waits, then finds nothing to do), and a crash mid-migration leaves none
 * half-applied. The lock that Kysely's SQLite adapter skips (one connection per process) is that write lock.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly database: KyselySqliteDatabase) {
    super({ database })
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver({ database: this.database })
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter()
  }
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url)
}

function sqlitePath(url: string): string {
  return url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url
}

/**
 * Kysely prepares every query anew, so SQLite parses and plans the same SQL on each request (about
 * a third of a GET by id, measured in bench/). better-sqlite3 statements are reusable: keep them,
 * keyed by their SQL, up to `capacity`. Safe because queries run to completion synchronously
 * (Kysely's all/run); nothing iterates a statement across awaits.
 */
function statementCache(sqlite: SqliteDatabase.Database, capacity = 1_000): (sql: string) => SqliteDatabase.Statement {
  const statements = new Map<string, SqliteDatabase.Statement>()
  return (sql) => {
    let statement = statements.get(sql)
    if (!statement) {
      if (statements.size >= capacity) statements.delete(statements.keys().next().value!)
      statement = sqlite.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
}

/** A statement on a SQLite connection, answered as Kysely's SQLite connection answers it (rows, or counts). */
function runOn(prepare: (sql: string) => SqliteDatabase.Statement): (query: CompiledQuery) => QueryResult<unknown> {
  return ({ sql, parameters }) => {
    const statement = prepare(sql)
    if (statement.reader) return { rows: statement.all(parameters) }
    const { changes, lastInsertRowid } = statement.run(parameters)
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) }
  }
}

function connectSqlite(path: string, synchronous: SqliteSynchronous, options: SqliteDatabase.Options = {}): SqliteDatabase.Database {
  const sqlite = new SqliteDatabase(path, options)
  if (!options.readonly) {
    sqlite.pragma('journal_mode = WAL')
    // KASSA_SQLITE_SYNCHRONOUS (config.ts): NORMAL survives a process crash, FULL also power loss.
    sqlite.pragma(`synchronous = ${synchronous}`)
    sqlite.pragma('foreign_keys = ON')
  }
  sqlite.pragma('busy_timeout = 5000')
  // Sorts and temporary b-trees of a query never touch the disk (issue 14).
  sqlite.pragma('temp_store = MEMORY')
  // SQLite's built-in lower() folds only A–Z; PostgreSQL folds all of Unicode. Searches must agree.
  sqlite.function('lower', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text))
  return sqlite
}

/**
 * The writing connection behind Kysely (its transactions hold it across awaits) and, for a file,
 * a read-only connection for prepared reads outside transactions while the writer has one open: WAL lets it read
 * the last commit meanwhile, without waiting for Kysely's connection lock. With none open (most of the time: a
 * group-commit batch runs without yielding) they run on the writer, whose page cache is warm; every commit empties
 * the reader's (issue 14). A file's WAL is checkpointed by a thread of its own (sqlite-checkpointer.ts).
 */
function openSqlite(url: string, synchronous: SqliteSynchronous): { db: Kysely<DatabaseSchema>; stop: () => Promise<void> } {
  const path = sqlitePath(url)
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const writer = connectSqlite(path, synchronous)
  const reader = path === ':memory:' ? undefined : connectSqlite(path, synchronous, { readonly: true })
  const prepareOnWriter = statementCache(writer)
  const db = new Kysely<DatabaseSchema>({
    dialect: new ImmediateSqliteDialect({
      close: () => {
        reader?.close()
        writer.close()
      },
      prepare: prepareOnWriter,
    }),
  })
  registerTransactionPath(db, { open: () => writer.inTransaction, run: runOn(prepareOnWriter) })
  if (!reader) return { db, stop: async () => undefined }
  const stopCheckpoints = checkpointInBackground(writer, path, (message) => process.emitWarning(`SQLite checkpoint failed: ${message}`))
  const prepareOnReader = statementCache(reader)
  const dataVersion = reader.prepare('pragma data_version').pluck()
  registerReadPath(db, {
    dialect: 'sqlite',
    read: ({ sql, parameters }) => (writer.inTransaction ? prepareOnReader(sql) : prepareOnWriter(sql)).all(parameters),
    dataVersion: () => dataVersion.get() as number,
  })
  return { db, stop: stopCheckpoints }
}

function openPostgres(url: string, poolSize: number): Kysely<DatabaseSchema> {
  // Counts and sums come back as int8; they stay well inside 2^53 minor units.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))
  // Hot statements named, queries pipelined, reads outside transactions on connections of their own (postgres-driver.ts).
  const { pool, dialectPool, read } = namedStatementPool({ connectionString: url, max: poolSize })
  // An idle connection that the server ends (a restart, a terminated backend, a dropped database) is
  // reported here after the pool has discarded it; the next query opens a new one. Without a
  // listener, that 'error' event would crash the process.
  pool.on('error', () => undefined)
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: dialectPool }) })
  registerReadPath(db, { dialect: 'postgres', read })
  return db
}

/** Opens the database named by DATABASE_URL: `postgres://…` for PostgreSQL, a path or `sqlite:PATH` for SQLite. */
export interface DatabaseOptions {
  /** SQLite only: KASSA_SQLITE_SYNCHRONOUS, NORMAL unless given. */
  sqliteSynchronous?: SqliteSynchronous
  /** PostgreSQL only: KASSA_DATABASE_CONNECTIONS, the transaction connections of this machine's processes together. */
  databaseConnections?: number
  /** The processes sharing databaseConnections (KASSA_WORKERS, 1). */
  workers?: number
}

/**
 * The transaction pool of one process: its share of the machine's connections, at least 2 so that a transaction
 * waiting on another (a row lock) never waits for the pool too. Each process also keeps 2 for its reads
 * (postgres-driver.ts).
 */
export function postgresPoolSize({ databaseConnections = DEFAULT_DATABASE_CONNECTIONS, workers = 1 }: DatabaseOptions): number {
  return Math.max(2, Math.ceil(databaseConnections / workers))
}

/** PostgreSQL: a transaction of its own on a pooled connection; its listeners hear of it once it has committed. */
function transactionPerConnection(db: Db, signals: CommitSignals): Database['transaction'] {
  return async (work) => {
    let transaction: Transaction<DatabaseSchema> | undefined
    const result = await db.transaction().execute((trx) => {
      transaction = trx
      return work(trx)
    })
    signals.heard(takeRaised(transaction!))
    return result
  }
}

export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const dialect: Dialect = isPostgresUrl(url) ? 'postgres' : 'sqlite'
  const { db, stop } = dialect === 'postgres' ? { db: openPostgres(url, postgresPoolSize(options)), stop: async () => undefined } : openSqlite(url, options.sqliteSynchronous ?? 'NORMAL')
  const signals = createCommitSignals()
  return {
    db,
    dialect,
    // SQLite has one writer: the transactions requested together commit together (group-commit.ts, issue 14).
    transaction: dialect === 'postgres' ? transactionPerConnection(db, signals) : groupCommit(db, signals.heard),
    onCommit: signals.on,
    migrate: () => migrateToLatest(db as Kysely<unknown>),
    ping: async () => {
      await db.executeQuery(CompiledQuery.raw('select 1'))
    },
    close: async () => {
      await stop()
      await db.destroy()
    },
  }
}
