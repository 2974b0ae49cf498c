import type { CompiledQuery, Compilable, Insertable, QueryResult } from 'kysely'
import type { Executor } from './database.js'
import type { DatabaseSchema } from './schema.js'
import { answerWithNextStatement } from './postgres-driver.js'
import { nameStatement } from './postgres-named-statements.js'
import { executeStatement, readPathOf, transactionPathOf } from './read-path.js'
import { runWithSetupReads } from './setup-reads.js'

/** Stands for a named parameter while the query is compiled; cannot collide with a real value. */
const SLOT_PREFIX = '\u0000kassa-slot:'

type Slot<Name> = { name: Name } | { value: unknown }

interface Compiled<Name> {
  compiled: CompiledQuery
  slots: Slot<Name>[]
}

/** What a database's adapter is: one per Kysely instance, shared by its transactions, so it tells the dialect apart. */
type Adapter = ReturnType<Executor['getExecutor']>['adapter']

/**
 * A hot statement built and compiled once per dialect instead of on every call: Kysely's builder and compiler cost
 * more than SQLite's own work for a primary-key read, and about a quarter of a create's CPU (issue 14). `build` names
 * its parameters with `parameter(name)`; each call answers the compiled statement with `values` bound in their place.
 * On PostgreSQL it runs as a named prepared statement (postgres-driver.ts): parsed and planned once per
 * connection.
 */
function compileOnce<Row, Name extends string, Value>(
  build: (db: Executor, parameter: (name: Name) => Value) => Compilable<Row>,
  options: StatementOptions = {},
): (executor: Executor, values: Record<Name, Value>) => CompiledQuery<Row> {
  const byAdapter = new WeakMap<Adapter, Compiled<Name>>()

  function prepare(db: Executor, adapter: Adapter): Compiled<Name> {
    const built = build(db, (name) => `${SLOT_PREFIX}${name}` as Value).compile()
    const compiled = options.answeredWithNext ? { ...built, sql: answerWithNextStatement(built.sql) } : built
    nameStatement(compiled.sql)
    const slots = compiled.parameters.map((value): Slot<Name> =>
      typeof value === 'string' && value.startsWith(SLOT_PREFIX) ? { name: value.slice(SLOT_PREFIX.length) as Name } : { value },
    )
    const prepared = { compiled, slots }
    byAdapter.set(adapter, prepared)
    return prepared
  }

  return (executor, values) => {
    const { adapter } = executor.getExecutor()
    const { compiled, slots } = byAdapter.get(adapter) ?? prepare(executor, adapter)
    return { ...compiled, parameters: slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value)) } as CompiledQuery<Row>
  }
}

export interface StatementOptions {
  /**
   * A write whose answer nobody reads (it always writes its rows, or fails): on PostgreSQL it is not waited for, and
   * goes out with the transaction's next awaited statement — often its COMMIT — whose answer reports its failure
   * (postgres-driver.ts answeredWithNext). Its caller must not need the failure before then: nothing may catch it to
   * go on, since a failed statement ends a PostgreSQL transaction anyway.
   */
  answeredWithNext?: boolean
}

/** A compiled-once statement: run alone, or bound and run with others (runTogether). */
export interface Prepared<Row, Result, Name extends string, Value> {
  (executor: Executor, values: Record<Name, Value>): Promise<Result>
  /** The statement with `values` bound, for runTogether. */
  bind(executor: Executor, values: Record<Name, Value>): CompiledQuery<Row>
}

/**
 * A hot read, compiled once (compileOnce). Outside a transaction it goes through the database's read path
 * (read-path.ts); inside one it runs on the transaction, so it sees the transaction's own writes.
 */
export function preparedQuery<Row, Name extends string, Value = string>(
  build: (db: Executor, parameter: (name: Name) => Value) => Compilable<Row>,
): Prepared<Row, Row[], Name, Value> {
  const bind = compileOnce(build)
  const run = async (executor: Executor, values: Record<Name, Value>) => {
    const query = bind(executor, values)
    const path = readPathOf(executor)
    return path ? ((await path.read(query)) as Row[]) : (await executeStatement(executor, query)).rows
  }
  return Object.assign(run, { bind })
}

/** A hot write (or a read that locks), compiled once (compileOnce), run in the transaction it is given. */
export function preparedStatement<Row, Name extends string, Value = string>(
  build: (db: Executor, parameter: (name: Name) => Value) => Compilable<Row>,
  options: StatementOptions = {},
): Prepared<Row, QueryResult<Row>, Name, Value> {
  const bind = compileOnce(build, options)
  return Object.assign((trx: Executor, values: Record<Name, Value>) => executeStatement(trx, bind(trx, values)), { bind })
}

/** The answers of runTogether's statements, in their order. */
export type Results<Queries extends readonly CompiledQuery[]> = { [K in keyof Queries]: Queries[K] extends CompiledQuery<infer Row> ? QueryResult<Row> : never }

/**
 * Runs statements that do not depend on each other's answers together, in the order given, on the executor's one
 * connection (a transaction's own): on PostgreSQL pipelined, one round trip for all (postgres-driver.ts);
 * on SQLite one after the other, as ever, its setup reads answered from memory where they may be (setup-reads.ts).
 * The first failure rejects; in a transaction the rest then fail with it.
 */
export async function runTogether<const Queries extends readonly CompiledQuery[]>(executor: Executor, queries: Queries): Promise<Results<Queries>> {
  const direct = transactionPathOf(executor)
  if (direct) return runWithSetupReads(direct, queries) as Results<Queries>
  return executor
    .getExecutor()
    .provideConnection((connection) => Promise.all(queries.map((query) => connection.executeQuery(query)))) as Promise<Results<Queries>>
}

/**
 * INSERTs of one row into `table`, compiled once per set of columns (the rows a piece of code builds always have the
 * same ones): `bind(trx, row)` for runTogether, or run alone. Values must not be undefined: a missing value is null.
 */
export function preparedInsert<Table extends keyof DatabaseSchema & string>(table: Table, options: StatementOptions = {}) {
  // One or two sets of columns per table: found by comparing the row's keys, not by a string made of them per row.
  const byColumns: Array<{ columns: string[]; statement: Prepared<unknown, QueryResult<unknown>, string, unknown> }> = []
  function statementFor(row: object) {
    const columns = Object.keys(row)
    const known = byColumns.find((entry) => entry.columns.length === columns.length && entry.columns.every((column, n) => column === columns[n]))
    if (known) return known.statement
    const statement = preparedStatement((db, parameter: (name: string) => unknown) =>
      db.insertInto(table).values(Object.fromEntries(columns.map((column) => [column, parameter(column)])) as never),
      options,
    )
    byColumns.push({ columns, statement })
    return statement
  }
  const bind = (trx: Executor, row: Insertable<DatabaseSchema[Table]>) => statementFor(row).bind(trx, row as Record<string, unknown>)
  return Object.assign((trx: Executor, row: Insertable<DatabaseSchema[Table]>) => executeStatement(trx, bind(trx, row)), { bind })
}

/**
 * Sends statements on the executor's connection without keeping it until they are answered, so that the statements
 * that follow (another runTogether) go out behind them — on PostgreSQL in the same round trip — and returns their
 * answers to await later. For a transaction's executor only: the connection stays the transaction's until its end.
 */
export async function sendAhead<const Queries extends readonly CompiledQuery[]>(trx: Executor, queries: Queries): Promise<{ answers: Promise<Results<Queries>> }> {
  const sent = transactionPathOf(trx)
    ? // SQLite runs them now, as Kysely's connection would: there is no round trip to save.
      { answers: runTogether(trx, queries) }
    : await trx
        .getExecutor()
        .provideConnection(async (connection) => ({ answers: Promise.all(queries.map((query) => connection.executeQuery(query))) as Promise<Results<Queries>> }))
  // Awaited by the caller; a failure before then is not unhandled.
  sent.answers.catch(() => undefined)
  return sent
}
