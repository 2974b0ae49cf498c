import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import SqliteDatabase from 'better-sqlite3'
import { sql, type Transaction } from 'kysely'
import { raiseAfterCommit } from '../../src/db/commit-signals.js'
import { openDatabase, type Database } from '../../src/db/database.js'
import { groupCommit } from '../../src/db/group-commit.js'
import type { DatabaseSchema } from '../../src/db/schema.js'
import { testBackend } from '../support/test-database.js'

type Trx = Transaction<DatabaseSchema>

/**
 * Issue 14: on SQLite the transactions requested together share one COMMIT, each in a savepoint of its own. A second
 * connection to the same file (the observer) sees only what has committed: it tells one batch from many, and whether
 * a caller heard of its work before the work was durable.
 */
describe.runIf(testBackend() === 'sqlite')('SQLite group commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-group-commit-'))
  const file = join(dir, 'kassa.sqlite')
  let database: Database
  let observer: SqliteDatabase.Database

  beforeAll(async () => {
    database = openDatabase(file)
    await sql`create table entries (id integer primary key, note text)`.execute(database.db)
    await sql`create table parents (id integer primary key)`.execute(database.db)
    await sql`create table children (id integer primary key, parent_id integer not null references parents (id))`.execute(database.db)
    observer = new SqliteDatabase(file, { readonly: true })
  })
  afterAll(async () => {
    observer?.close()
    await database?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const committedIds = () => observer.prepare('select id from entries order by id').pluck().all() as number[]
  const insert = (trx: Trx, id: number) => sql`insert into entries (id, note) values (${id}, 'work')`.execute(trx)
  const clear = () => database.transaction((trx) => sql`delete from entries`.execute(trx))

  it('commits the works requested together in one batch, and those requested one after another each on its own', async () => {
    await clear()
    const seenTogether: number[] = []
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        database.transaction(async (trx) => {
          await insert(trx, n + 1)
          seenTogether.push(committedIds().length)
        }),
      ),
    )
    // Works ran in batches: the first ones saw nothing committed, and the twenty took a few COMMITs at most (a batch
    // takes no work after its first 8 ms, which a busy CI machine can reach); one COMMIT each would show 0, 1, 2, … 19.
    expect(seenTogether.slice(0, 2)).toEqual([0, 0])
    expect(new Set(seenTogether).size).toBeLessThanOrEqual(5)
    expect(committedIds()).toHaveLength(20)

    await clear()
    const seenInTurn: number[] = []
    for (let n = 1; n <= 3; n += 1) {
      await database.transaction(async (trx) => {
        await insert(trx, n)
        seenInTurn.push(committedIds().length)
      })
    }
    expect(seenInTurn).toEqual([0, 1, 2])
  })

  it('resolves a caller only once its batch has committed: the second connection already sees the work', async () => {
    await clear()
    const answered: number[] = []
    const visibleWhenAnswered: boolean[] = []
    let answeredBeforeTheBatchEnded = false
    await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        database
          .transaction(async (trx) => {
            await insert(trx, n + 1)
            // The earlier works of this batch are done, but their callers must not have heard yet.
            if (answered.length > 0) answeredBeforeTheBatchEnded = true
          })
          .then(() => {
            answered.push(n + 1)
            visibleWhenAnswered.push(committedIds().includes(n + 1))
          }),
      ),
    )
    expect(answeredBeforeTheBatchEnded).toBe(false)
    expect(visibleWhenAnswered).toEqual(Array(10).fill(true))
  })

  it('rolls back only the work that failed, to its savepoint; its neighbours in the batch commit', async () => {
    await clear()
    const results = await Promise.allSettled([
      database.transaction((trx) => insert(trx, 1)),
      database.transaction(async (trx) => {
        await insert(trx, 2)
        throw new Error('work 2 failed')
      }),
      database.transaction(async (trx) => {
        await insert(trx, 3)
        // A duplicate key fails its statement; the work catches it and goes on, as a repository's conflict check does.
        await insert(trx, 3).catch(() => undefined)
        await insert(trx, 4)
      }),
      database.transaction(async (trx) => {
        await insert(trx, 5)
        await insert(trx, 1)
      }),
    ])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected'])
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('work 2 failed'))
    expect(String((results[3] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/)
    expect(committedIds()).toEqual([1, 3, 4])
  })

  it('rejects every work of a batch whose COMMIT fails, keeps none of them, and commits the next batch', async () => {
    await clear()
    const results = await Promise.allSettled([
      database.transaction((trx) => insert(trx, 1)),
      database.transaction(async (trx) => {
        // Checked at COMMIT, not at the statement: the savepoint is released and COMMIT itself fails.
        await sql`pragma defer_foreign_keys = on`.execute(trx)
        await sql`insert into children (id, parent_id) values (1, 999)`.execute(trx)
      }),
      database.transaction((trx) => insert(trx, 2)),
    ])
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected'])
    for (const result of results) expect(String((result as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/)
    expect(committedIds()).toEqual([])
    expect(observer.prepare('select count(*) from children').pluck().get()).toBe(0)

    await database.transaction((trx) => insert(trx, 3))
    expect(committedIds()).toEqual([3])
  })

  it('tells commit listeners of each committed work, not of a work rolled back in the same batch', async () => {
    const heard: string[] = []
    const stop = database.onCommit('entry', () => heard.push('entry'))
    await clear()
    await Promise.allSettled([
      database.transaction(async (trx) => {
        await insert(trx, 1)
        raiseAfterCommit(trx, 'entry')
      }),
      database.transaction(async (trx) => {
        raiseAfterCommit(trx, 'entry')
        throw new Error('rolled back')
      }),
      database.transaction(async (trx) => {
        await insert(trx, 2)
        raiseAfterCommit(trx, 'entry')
      }),
    ])
    stop()
    expect(heard).toEqual(['entry', 'entry'])
  })

  it('ends a batch at its limits: a number of works, or a long work, so no reply waits long for others', async () => {
    await clear()
    const inPairs = groupCommit(database.db, () => undefined, { works: 2, milliseconds: 60_000 })
    const seenInPairs: number[] = []
    await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        inPairs(async (trx) => {
          await insert(trx, n + 1)
          seenInPairs.push(committedIds().length)
        }),
      ),
    )
    expect(seenInPairs).toEqual([0, 0, 2, 2, 4])

    await clear()
    const seenAfterLongWork: number[] = []
    const long = database.transaction(async (trx) => {
      await insert(trx, 1)
      await sleep(50)
    })
    await sleep(10)
    const short = database.transaction(async (trx) => {
      await insert(trx, 2)
      seenAfterLongWork.push(committedIds().length)
    })
    await Promise.all([long, short])
    // The short work came while the long one ran past the batch's time limit: it ran in the next batch.
    expect(seenAfterLongWork).toEqual([1])
  })
})
