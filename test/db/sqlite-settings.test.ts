import { afterEach, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { openDatabase, type Database } from '../../src/db/database.js'

/** Issue 14: KASSA_SQLITE_SYNCHRONOUS chooses what a commit survives; temporary b-trees stay in memory. */
describe('SQLite connection settings', () => {
  const opened: Database[] = []
  const dir = mkdtempSync(join(tmpdir(), 'kassa-sqlite-settings-'))
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close()
  })

  async function pragma(database: Database, name: string): Promise<unknown> {
    const { rows } = await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(database.db)
    return Object.values(rows[0]!)[0]
  }

  function open(file: string, options?: Parameters<typeof openDatabase>[1]): Database {
    const database = openDatabase(join(dir, file), options)
    opened.push(database)
    return database
  }

  it('runs NORMAL by default and FULL when configured, with temp_store MEMORY either way', async () => {
    const normal = open('normal.sqlite')
    expect(await pragma(normal, 'synchronous')).toBe(1)
    expect(await pragma(normal, 'temp_store')).toBe(2)
    const full = open('full.sqlite', { sqliteSynchronous: 'FULL' })
    expect(await pragma(full, 'synchronous')).toBe(2)
    expect(await pragma(full, 'journal_mode')).toBe('wal')
    rmSync(dir, { recursive: true, force: true })
  })
})
