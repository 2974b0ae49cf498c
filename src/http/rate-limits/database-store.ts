import { randomUUID } from 'node:crypto'
import type { Database } from '../../db/database.js'
import { SlidingWindowRateLimiter, type OtherProcesses, type RateDecision, type RateLimiter } from '../rate-limiter.js'
import { createOutage, type StoreLog } from './outage.js'
import { addHits, deleteHitsBefore, othersHits, type Hits } from './rate-limit-hits.repo.js'
import type { LimiterOptions, RateLimitStore } from './rate-limit-store.js'

export interface DatabaseStoreOptions {
  database: Database
  log: StoreLog
  windowMs: number
  /** How often a process adds its counts to the database and reads the others' back. */
  syncMilliseconds: number
}

/** A limit of the database store: this process's requests exactly, the other processes' as last read. */
interface SharedLimit {
  own: SlidingWindowRateLimiter
  others: Map<string, OtherProcesses>
  /** Requests admitted since the last sync, per key and second: what this process adds next. */
  pending: Map<string, Map<number, number>>
}

/**
 * Rate limits shared through the database, for deployments without Redis (issue 14). A database write per API
 * request would halve the write throughput, so each process counts its own requests in memory — exactly, as one
 * process always did — and every `syncMilliseconds` adds them to per-second rows of its own (one statement) and
 * reads back the sums of every other process's rows in the window (one statement). A request is admitted when its
 * key's own count plus the others' last-read count is under the limit.
 *
 * The bound this buys: another process's requests are seen at most two sync intervals late (its add, then this
 * read), so across P processes a key can pass its limit by what the other P − 1 processes admit for it in that
 * time — with the default 250 ms, at most half a second of its traffic — and never more than P × the limit in a
 * window, as each process alone holds it exactly. Failed authentications are `immediate`:
 * each is written before its 401 is sent, so a guesser is refused everywhere within one sync interval of reaching
 * the limit. Rows are per second; a process deletes rows older than a window once per window.
 *
 * The database unreachable: every process goes on with its own counts (the limits then hold per process), logged
 * once when lost and once when back.
 */
export function openDatabaseStore(options: DatabaseStoreOptions): RateLimitStore {
  const { database, windowMs } = options
  const processId = randomUUID()
  const limits = new Map<string, SharedLimit>()
  const outage = createOutage(options.log, 'the database', 'each process counts its own requests until it answers')
  let lastCleanup = 0
  let running: Promise<void> | undefined

  const atSecond = (now: number) => Math.floor(now / 1000)

  /** Every pending count, taken out of the limits: what this sync adds. */
  function drainPending(): Hits[] {
    const hits: Hits[] = []
    for (const [limiter, limit] of limits) {
      for (const [key, seconds] of limit.pending) {
        for (const [second, count] of seconds) hits.push({ limiter, key, atSecond: second, hits: count })
      }
      limit.pending.clear()
    }
    return hits
  }

  async function sync(): Promise<void> {
    const now = Date.now()
    try {
      await addHits(database.db, processId, drainPending())
      // A row of second s holds requests up to s + 1: the oldest second that may still be in the window.
      const since = atSecond(now - windowMs)
      if (now - lastCleanup >= windowMs) {
        await deleteHitsBefore(database.db, since)
        lastCleanup = now
      }
      const fresh = new Map<string, Map<string, OtherProcesses>>([...limits.keys()].map((name) => [name, new Map()]))
      for (const row of await othersHits(database.db, processId, since)) {
        fresh.get(row.limiter)?.set(row.key, { count: Number(row.hits), leavesAt: (Number(row.oldestSecond) + 1) * 1000 + windowMs })
      }
      for (const [name, others] of fresh) limits.get(name)!.others = others
      outage.restored()
    } catch (error) {
      // The counts of this round are lost to the others (their limits stay per process meanwhile); never to this process.
      outage.lost(error)
    }
  }

  /** One sync at a time; a tick that finds one still running skips. */
  function syncOnce(): Promise<void> {
    running ??= sync().finally(() => {
      running = undefined
    })
    return running
  }

  const timer = setInterval(() => void syncOnce(), options.syncMilliseconds)
  timer.unref()

  return {
    kind: 'database',

    limiter(name: string, limit: number, { immediate = false }: LimiterOptions = {}): RateLimiter {
      const shared: SharedLimit = { own: new SlidingWindowRateLimiter(limit, windowMs), others: new Map(), pending: new Map() }
      limits.set(name, shared)

      function record(key: string, now: number): void | Promise<void> {
        if (immediate) {
          return addHits(database.db, processId, [{ limiter: name, key, atSecond: atSecond(now), hits: 1 }]).then(outage.restored, outage.lost)
        }
        let seconds = shared.pending.get(key)
        if (!seconds) shared.pending.set(key, (seconds = new Map()))
        const second = atSecond(now)
        seconds.set(second, (seconds.get(second) ?? 0) + 1)
      }

      return {
        take(key: string): RateDecision | Promise<RateDecision> {
          const now = Date.now()
          const decision = shared.own.take(key, now, shared.others.get(key))
          if (!decision.allowed) return decision
          const recorded = record(key, now)
          return recorded ? recorded.then(() => decision) : decision
        },
        peek(key: string): RateDecision {
          return shared.own.peek(key, Date.now(), shared.others.get(key))
        },
      }
    },

    async close(): Promise<void> {
      clearInterval(timer)
      await running
      // What this process counted last is the others' to see: one more sync while the database is still open.
      await sync()
    },
  }
}
