import { createHash } from 'node:crypto'
import pg from 'pg'

/**
 * The SQL of the hot statements (compiledStatement, prepared-query.ts) and the name each runs under on PostgreSQL.
 * Only these are named: the set is bounded by the code, where naming every statement (lists with their varying filters
 * and IN lists) would prepare an unbounded number of them on every connection.
 */
const names = new Map<string, string>()

/** Marks `sql` as a hot statement: on PostgreSQL it becomes a named prepared statement, parsed and planned once per connection. */
export function nameStatement(sql: string): void {
  // Named by its text, so a name can never stand for two statements (node-postgres refuses that).
  if (!names.has(sql)) names.set(sql, `kassa_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`)
}

/** What node-postgres keeps of a RowDescription to read the rows that follow it (pg 8, lib/result.js). */
interface RowShape {
  fields: unknown[]
  _parsers: unknown[] | undefined
  _prebuiltEmptyResultObject: unknown
}

/** The parts of node-postgres' Query (lib/query.js) that a NamedQuery overrides or reads; @types/pg does not declare them. */
interface QueryInternals {
  name?: string
  _result: RowShape
  _accumulateRows: boolean
  prepare(connection: pg.Connection): void
  handleRowDescription(message: unknown): void
}

const pgQuery = pg.Query.prototype as unknown as QueryInternals

/** Per connection, the row shape of each named statement it has described: one Map per pg Connection. */
const described = new WeakMap<pg.Connection, Map<string, RowShape>>()

/**
 * A named statement that asks PostgreSQL to describe its rows once per connection, not on every execution:
 * node-postgres sends Describe each time and rebuilds the row shape from the RowDescription, which cost 12% of an
 * authenticated GET by id's CPU on PostgreSQL (26 columns; --cpu-prof, npm run bench). A prepared statement's
 * result columns are fixed on its connection: PostgreSQL refuses to run it with any other ("cached plan must not
 * change result type"), so the shape read at its first execution there holds for every later one. Keyed by
 * connection, not by name alone: a new connection, after a migration, describes again.
 */
class NamedQuery extends pg.Query {
  /** Set by prepare, which node-postgres calls before any answer to the query arrives. */
  private connection!: pg.Connection

  constructor(
    private readonly statementName: string,
    sql: string,
    parameters: readonly unknown[],
    callback: (error: Error | undefined, result: pg.QueryResult) => void,
  ) {
    // Text and values, not a config object: node-postgres copies a config object through its property descriptors
    // (utils.cloneQueryConfig, 3% of a create's CPU on PostgreSQL), a string it does not. It reads the values only.
    super(sql, parameters as unknown[], callback)
    ;(this as unknown as QueryInternals).name = statementName
  }

  prepare(this: NamedQuery & QueryInternals, connection: pg.Connection): void {
    this.connection = connection
    const shape = described.get(connection)?.get(this.statementName)
    if (shape === undefined) {
      pgQuery.prepare.call(this, connection)
      return
    }
    Object.assign(this._result, shape)
    // handleRowDescription sets it when there is one: rows are kept whenever a callback waits for them.
    this._accumulateRows = true
    // pg's prepare writes Parse (when new on the connection), Bind, Describe, Execute and Sync: all but Describe.
    const connectionWithDescribe = connection as unknown as { describe: (message: unknown) => void }
    connectionWithDescribe.describe = () => undefined
    try {
      pgQuery.prepare.call(this, connection)
    } finally {
      delete (connectionWithDescribe as { describe?: unknown }).describe
    }
  }

  handleRowDescription(this: NamedQuery & QueryInternals, message: unknown): void {
    pgQuery.handleRowDescription.call(this, message)
    let shapes = described.get(this.connection)
    if (shapes === undefined) described.set(this.connection, (shapes = new Map()))
    const { fields, _parsers, _prebuiltEmptyResultObject } = this._result
    shapes.set(this.statementName, { fields, _parsers, _prebuiltEmptyResultObject })
  }
}

/** Runs `sql` on `client`: by name, described once per connection, when it is a hot statement (nameStatement). */
export function runStatement(client: pg.ClientBase, sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult> {
  const name = names.get(sql)
  // Text and values, as NamedQuery passes them: no copy of a config object.
  if (name === undefined) return client.query(sql, parameters as unknown[])
  return new Promise((resolve, reject) => {
    client.query(new NamedQuery(name, sql, parameters, (error, result) => (error ? reject(error) : resolve(result))))
  })
}
