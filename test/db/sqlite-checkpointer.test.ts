import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/database.js'
import { BACKSTOP_CHECKPOINT_PAGES } from '../../src/db/sqlite-checkpointer.js'

/**
 * Issue 14: a SQLite file's WAL is copied into the database file by a thread of its own, not in the COMMIT of a
 * request (which held that request's answer, and every answer of its group commit, for the copy). The writer only
 * checkpoints past BACKSTOP_CHECKPOINT_PAGES; here far fewer pages are written, so the database file grows only if
 * the background checkpointer ran.
 */
describe('the SQLite checkpointer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-checkpointer-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('copies committed pages into the database file off the request thread, the writer only as a backstop', async () => {
    const file = join(dir, 'kassa.sqlite')
    const database = openDatabase(file)
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)
      expect(rows[0]!.wal_autocheckpoint).toBe(BACKSTOP_CHECKPOINT_PAGES)
      await sql`create table written (id integer primary key, text text not null)`.execute(database.db)
      const before = statSync(file).size
      // About 3 MB: some 750 pages of 4 KiB, far below the backstop.
      for (let batch = 0; batch < 30; batch += 1) {
        await database.transaction(async (trx) => {
          for (let row = 0; row < 50; row += 1) await sql`insert into written (text) values (${'x'.repeat(2_000)})`.execute(trx)
        })
      }
      await expect.poll(() => statSync(file).size - before, { timeout: 5_000, interval: 50 }).toBeGreaterThan(2_900_000)
    } finally {
      // Stops the thread: a thread left running would keep the file open after close.
      await database.close()
    }
  })
})
