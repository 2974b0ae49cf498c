/**
 * `kassa backup PATH` (src/cli/backup-command.ts), the real bin against a database another connection holds
 * open and writes, as a running server does: the copy is taken, restored and read back.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/database.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'
import { buildOnce, childEnv, runKassa } from './cli-process.js'

/** Each test spawns a Node process or two; on a loaded machine one can take seconds. */
const SLOW = 120_000

let live: TestDatabase
let directory: string
const kassa = (args: string[], databaseUrl = live.url) => runKassa(args, childEnv({ DATABASE_URL: databaseUrl }))

async function organizationNames(databaseUrl: string): Promise<string[]> {
  const database = openDatabase(databaseUrl)
  try {
    return (await database.db.selectFrom('organizations').select('name').orderBy('name').execute()).map((row) => row.name)
  } finally {
    await database.close()
  }
}

beforeAll(async () => {
  // `npm run build` once per test run, shared with the other CLI test files: as long as they, it may wait for it.
  await buildOnce()
  live = await createTestDatabase()
  directory = mkdtempSync(join(tmpdir(), 'kassa-backup-'))
}, 300_000)

afterAll(async () => {
  await live?.destroy()
  if (directory) rmSync(directory, { recursive: true, force: true })
})

describe.runIf(testBackend() === 'sqlite')('kassa backup on SQLite', { timeout: SLOW }, () => {
  it('copies the commits still in the write-ahead log while the database is open; the copy restores and reads', async () => {
    // Everything so far into the main file, then one organization that lives only in the WAL: the state a running
    // server's database is in between checkpoints. A reader's snapshot taken before it keeps the background
    // checkpointer (src/db/sqlite-checkpointer.ts) from copying it into the main file meanwhile.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(live.database.db)
    const file = live.url.replace(/^sqlite:/, '')
    const reader = new SqliteDatabase(file, { readonly: true })
    reader.exec('begin')
    reader.prepare('select count(*) from organizations').get()
    try {
      await createSandboxOrganization(live.database, 'Only in the WAL')

      const run = await kassa(['backup', join(directory, 'nightly', 'kassa.sqlite')])
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(new RegExp(`^Backed up to ${join(directory, 'nightly', 'kassa.sqlite')} \\(\\d+ bytes\\)\\n$`))

      // Why a copy of the file alone is no backup: the same moment's main file lacks the last commit.
      copyFileSync(file, join(directory, 'file-alone.sqlite'))
      expect(await organizationNames(`sqlite:${join(directory, 'file-alone.sqlite')}`)).toEqual([])
    } finally {
      reader.exec('commit')
      reader.close()
    }

    // Restored as an operator would: the copy put in place of a lost database, then the server's own steps.
    const restored = join(directory, 'restored.sqlite')
    copyFileSync(join(directory, 'nightly', 'kassa.sqlite'), restored)
    const migrate = await kassa(['migrate'], `sqlite:${restored}`)
    expect(migrate.stdout).toBe('Database is up to date\n')
    expect(await organizationNames(`sqlite:${restored}`)).toEqual(['Only in the WAL'])
  })

  it('never overwrites a file: an existing path is refused with exit code 1 and left as it was', async () => {
    const existing = join(directory, 'existing.sqlite')
    writeFileSync(existing, 'not a backup')
    const run = await kassa(['backup', existing])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(`kassa: ${existing} already exists; a backup never overwrites a file\n`)
    expect(readFileSync(existing, 'utf8')).toBe('not a backup')
  })
})

describe.runIf(testBackend() === 'postgres')('kassa backup on PostgreSQL', { timeout: SLOW }, () => {
  it('is refused, pointing at pg_dump, and writes no file', async () => {
    const target = join(directory, 'postgres.sqlite')
    const run = await kassa(['backup', target])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('kassa: kassa backup copies an SQLite database; back up PostgreSQL with pg_dump (docs/deployment.md)\n')
    expect(existsSync(target)).toBe(false)
  })
})
