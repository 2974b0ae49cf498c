import { createHash } from 'node:crypto'
import type { PostgresPool, PostgresPoolClient } from 'kysely'
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

/**
 * node-postgres' pool as Kysely's PostgresDialect takes it, running the hot statements by name: Kysely passes SQL
 * text and values, and node-postgres prepares a statement only when given a name. The pool's clients pipeline
 * (`pipeline: true`): queries issued together — the reads a create makes at once (credit-transfer.service.ts) — go
 * out without waiting for each other's answers, one round trip instead of one each. PostgreSQL still runs them in
 * order, each statement in its own snapshot, so a transaction behaves exactly as when they are sent one by one.
 */
export function namedStatementPool(config: pg.PoolConfig): { pool: pg.Pool; dialectPool: PostgresPool } {
  const pool = new pg.Pool({ ...config, pipeline: true })
  // Kysely keeps one connection per client object: each pool client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  function wrapperOf(client: pg.PoolClient): PostgresPoolClient {
    let wrapper = wrappers.get(client)
    if (wrapper) return wrapper
    // A transaction's BEGIN is not waited for: it goes out with the transaction's first statement, whose answer
    // also reports BEGIN's failure (a connection lost, when every statement fails anyway). One round trip fewer.
    let pendingBegin: Promise<unknown> | undefined
    const send = (sql: string, parameters: readonly unknown[]) => {
      const name = names.get(sql)
      return client.query(name === undefined ? { text: sql, values: [...parameters] } : { name, text: sql, values: [...parameters] })
    }
    wrapper = {
      // Kysely streams through a cursor only when given one in the dialect's config; Kassa gives none.
      query: (async (sql: string, parameters: readonly unknown[]) => {
        if (sql === 'begin') {
          pendingBegin = send(sql, parameters)
          pendingBegin.catch(() => undefined)
          return { command: 'BEGIN', rowCount: null, rows: [] }
        }
        const begun = pendingBegin
        pendingBegin = undefined
        const answer = send(sql, parameters)
        if (begun) await begun.catch(async (error: unknown) => {
          await answer.catch(() => undefined)
          throw error
        })
        return answer
      }) as unknown as PostgresPoolClient['query'],
      release: () => client.release(),
    }
    wrappers.set(client, wrapper)
    return wrapper
  }

  return {
    pool,
    dialectPool: {
      connect: async () => wrapperOf(await pool.connect()),
      end: () => pool.end(),
    },
  }
}
