import { CompiledQuery, type ControlledTransaction, type Kysely, type Transaction } from 'kysely'
import { takeRaised } from './commit-signals.js'
import { executeStatement } from './read-path.js'

/** How large a batch may grow before it commits, so the first work's reply waits a bounded time. */
export interface GroupCommitLimits {
  /** Works run in one batch at most. */
  works: number
  /** No further work joins a batch open this long; a long work (a statement import) so ends its batch. */
  milliseconds: number
}

const DEFAULT_LIMITS: GroupCommitLimits = { works: 64, milliseconds: 8 }

/**
 * Every work's savepoint has one name: each is released or rolled back before the next is taken. Run as commands on
 * the batch's transaction, which every work of the batch is given: Kysely's savepoint() builds a transaction object
 * per call, about 4 µs a work (issue 14). On SQLite they run synchronously, by its transaction path (read-path.ts).
 */
const SAVEPOINT = CompiledQuery.raw('savepoint "work"')
const RELEASE = CompiledQuery.raw('release "work"')
const ROLLBACK_TO = CompiledQuery.raw('rollback to "work"')

interface Queued<DB> {
  work: (trx: Transaction<DB>) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** What a work came to inside its batch: its result and the signals it raised (commit-signals.ts), or its error (its savepoint rolled back). */
interface Outcome<DB> {
  queued: Queued<DB>
  signals?: ReadonlySet<string>
  value?: unknown
  failure?: { error: unknown }
}

/** One turn of the event loop (setImmediate runs right after the poll phase has read every ready socket). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Group commit for SQLite's one writer (issue 14): the transactions requested together share one BEGIN IMMEDIATE …
 * COMMIT, each in a savepoint of its own, so one work's failure rolls back only its own writes (SQLite: ROLLBACK TO
 * undoes a savepoint's changes and keeps the transaction). Works run one after another, as on one connection they
 * must. No caller hears of its work before the batch's COMMIT has returned: a reply, a replayed Idempotency-Key or a
 * 409 never rests on a write that is not durable, and the read connection already sees what the reply reports. If
 * COMMIT fails, every caller of the batch gets its error and nothing of the batch is kept. `committed` is given the
 * signals of each work that committed (commit-signals.ts), before its caller hears; a rolled-back work's are dropped.
 */
export function groupCommit<DB>(db: Kysely<DB>, committed: (signals: ReadonlySet<string> | undefined) => void, limits = DEFAULT_LIMITS) {
  const queue: Array<Queued<DB>> = []
  let running = false

  /** Runs queued works in one transaction until the queue is empty or a limit is reached; never throws. */
  async function runBatch(): Promise<void> {
    let outer: ControlledTransaction<DB>
    try {
      outer = await db.startTransaction().execute()
    } catch (error) {
      // BEGIN failed (another process held the write lock past busy_timeout): so would the waiting works' own.
      for (const queued of queue.splice(0)) queued.reject(error)
      return
    }
    const started = performance.now()
    const outcomes: Array<Outcome<DB>> = []
    try {
      while (outcomes.length < limits.works && performance.now() - started < limits.milliseconds) {
        const queued = queue.shift()
        if (!queued) break
        const outcome: Outcome<DB> = { queued }
        outcomes.push(outcome)
        await executeStatement(outer, SAVEPOINT)
        try {
          outcome.value = await queued.work(outer)
          await executeStatement(outer, RELEASE)
          outcome.signals = takeRaised(outer)
        } catch (error) {
          outcome.failure = { error }
          takeRaised(outer)
          await executeStatement(outer, ROLLBACK_TO)
          await executeStatement(outer, RELEASE)
        }
      }
      await outer.commit().execute()
    } catch (error) {
      // A savepoint command or COMMIT failed (SQLite may have ended the transaction itself: a full disk, an I/O
      // error; or a deferred foreign key is still violated): nothing of the batch is kept, and no caller hears otherwise.
      await outer.rollback().execute().catch(() => undefined)
      for (const { queued, failure } of outcomes) queued.reject(failure ? failure.error : error)
      return
    }
    for (const { queued, signals, value, failure } of outcomes) {
      if (failure) {
        queued.reject(failure.error)
        continue
      }
      try {
        committed(signals)
        queued.resolve(value)
      } catch (error) {
        queued.reject(error)
      }
    }
  }

  async function drain(): Promise<void> {
    running = true
    try {
      while (queue.length > 0) {
        // Wait for the sockets that are ready in this turn: their requests reach their transactions and join the
        // batch. The write lock is not held meanwhile, and a batch of works that do not wait on anything but SQLite
        // holds it without yielding to the event loop, as one transaction did before (another connection to the
        // file in this process would block the thread in its busy handler).
        await nextTurn()
        await runBatch()
      }
    } finally {
      running = false
    }
  }

  /** Runs `work` in the next batch; settles once that batch has committed (or failed). */
  return function transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
      if (!running) void drain()
    })
  }
}
