import type { Writable } from 'node:stream'
import type { CompiledQuery, PostgresPool, PostgresPoolClient } from 'kysely'
import pg from 'pg'
import { runStatement } from './postgres-named-statements.js'

/**
 * The SQL of statements whose answer nobody reads but whose failure must not be lost (a new payment's rows, the
 * Idempotency-Key's stored answer): on PostgreSQL each is sent and not waited for, so it goes out with the
 * transaction's next awaited statement — often its COMMIT — in one round trip, and its failure is reported as that
 * statement's.
 */
const answeredWithNext = new Set<string>()

/**
 * `sql` marked in its text as answered with the next statement (answeredWithNext), to run in its place: the same
 * statement run elsewhere, unmarked, stays awaited.
 */
export function answerWithNextStatement(sql: string): string {
  const marked = `${sql} /* answered with the next statement */`
  answeredWithNext.add(marked)
  return marked
}

/**
 * The queries a connection is given in one turn of the event loop, written to its socket in one system call:
 * node-postgres writes each query on its own, and those writes cost about 15% of a create's CPU on PostgreSQL
 * (measured with --cpu-prof, bench/payments.ts). Pipelined queries issued together — runTogether, BEGIN with the
 * first statement — then share one. Node's cork nests: node-postgres' own cork per query no longer flushes until
 * `flushAt` runs the flush: at the end of the current tick (a transaction's connection, which serves one request), or
 * after the event loop has taken in all the input that was ready (setImmediate: the shared read connections, which
 * then carry the reads of every request that arrived together in one write instead of one write each).
 */
function writesTogether(client: pg.Client, flushAt: (flush: () => void) => void): () => void {
  const { stream } = (client as unknown as { connection: { stream: Writable } }).connection
  let corked = false
  const flush = () => {
    corked = false
    stream.uncork()
  }
  return () => {
    if (corked) return
    corked = true
    stream.cork()
    flushAt(flush)
  }
}

/** How many connections of their own the reads outside transactions share: one PostgreSQL backend per core runs them. */
const READ_CONNECTIONS = 2

/**
 * Reads outside any transaction (the read path, read-path.ts) on a few connections of their own, pipelined: the
 * reads of concurrent requests go out on a shared connection without waiting for each other's answers, and none pays
 * for a pool checkout. Each is a statement of its own, in its own snapshot, as on the pool. A connection that fails
 * is dropped; the next read opens another.
 */
function pipelinedReads(config: pg.PoolConfig) {
  const connections: Array<Promise<{ client: pg.Client; coalesce: () => void }> | undefined> = []
  const opened = new Set<pg.Client>()
  let next = 0

  function connect(slot: number): Promise<{ client: pg.Client; coalesce: () => void }> {
    const client = new pg.Client({ ...config, pipeline: true })
    const ready = client.connect().then(() => ({ client, coalesce: writesTogether(client, setImmediate) }))
    const drop = () => {
      opened.delete(client)
      if (connections[slot] === ready) connections[slot] = undefined
    }
    client.on('error', drop)
    client.on('end', drop)
    ready.catch(drop)
    opened.add(client)
    connections[slot] = ready
    return ready
  }

  return {
    async read(query: CompiledQuery): Promise<unknown[]> {
      const slot = next
      next = (next + 1) % READ_CONNECTIONS
      const { client, coalesce } = await (connections[slot] ?? connect(slot))
      coalesce()
      return (await runStatement(client, query.sql, query.parameters)).rows
    },
    async end(): Promise<void> {
      connections.length = 0
      await Promise.all([...opened].map((client) => client.end().catch(() => undefined)))
    },
  }
}

/**
 * node-postgres' pool as Kysely's PostgresDialect takes it, running the hot statements by name: Kysely passes SQL
 * text and values, and node-postgres prepares a statement only when given a name. The pool's clients pipeline
 * (`pipeline: true`): queries issued together — the reads a create makes at once (credit-transfer.service.ts) — go
 * out without waiting for each other's answers, one round trip instead of one each. PostgreSQL still runs them in
 * order, each statement in its own snapshot, so a transaction behaves exactly as when they are sent one by one.
 */
export function namedStatementPool(config: pg.PoolConfig): { pool: pg.Pool; dialectPool: PostgresPool; read: (query: CompiledQuery) => Promise<unknown[]> } {
  const pool = new pg.Pool({ ...config, pipeline: true })
  const reads = pipelinedReads(config)
  // Kysely keeps one connection per client object: each pool client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  function wrapperOf(client: pg.PoolClient): PostgresPoolClient {
    let wrapper = wrappers.get(client)
    if (wrapper) return wrapper
    // Statements not waited for: a transaction's BEGIN goes out with the transaction's first statement, whose answer
    // also reports BEGIN's failure (a connection lost, when every statement fails anyway); a statement answered with
    // the next (answeredWithNext) goes out with it, usually COMMIT. One round trip fewer each. A ROLLBACK reports
    // nothing of them: it undoes them, and the error that led to it is the one to report.
    let unanswered: Array<Promise<unknown>> = []
    const coalesce = writesTogether(client, process.nextTick)
    const send = (sql: string, parameters: readonly unknown[]) => {
      coalesce()
      return runStatement(client, sql, parameters)
    }
    const sendLater = (sql: string, parameters: readonly unknown[]) => {
      const answer = send(sql, parameters)
      answer.catch(() => undefined)
      unanswered.push(answer)
    }
    wrapper = {
      // Kysely streams through a cursor only when given one in the dialect's config; Kassa gives none.
      query: (async (sql: string, parameters: readonly unknown[]) => {
        if (sql === 'begin') {
          sendLater(sql, parameters)
          return { command: 'BEGIN', rowCount: null, rows: [] }
        }
        if (answeredWithNext.has(sql)) {
          sendLater(sql, parameters)
          return { command: 'INSERT', rowCount: 1, rows: [] }
        }
        const earlier = unanswered
        unanswered = []
        const answer = send(sql, parameters)
        if (earlier.length > 0 && sql !== 'rollback') {
          await Promise.all(earlier).catch(async (error: unknown) => {
            await answer.catch(() => undefined)
            throw error
          })
        }
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
      // Kysely's destroy ends the pool; the read connections end with it.
      end: async () => {
        await Promise.all([pool.end(), reads.end()])
      },
    },
    read: reads.read,
  }
}
