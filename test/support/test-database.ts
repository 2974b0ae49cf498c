import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type Database } from '../../src/db/database.js'

export type Backend = 'sqlite' | 'postgres'

export function testBackend(): Backend {
  return process.env.KASSA_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite'
}

export interface TestDatabase {
  url: string
  database: Database
  /** Closes the connection and drops the database (PostgreSQL) or removes the file (SQLite). */
  destroy(): Promise<void>
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * A fresh database of the backend under test: a real SQLite file, or a new PostgreSQL database; migrated to the
 * latest version unless `migrate` is false (a test of a migration then migrates it as far as it needs).
 */
export async function createTestDatabase({ migrate = true }: { migrate?: boolean } = {}): Promise<TestDatabase> {
  let url: string
  let cleanup: () => Promise<void>
  if (testBackend() === 'postgres') {
    const name = `kassa_test_${randomBytes(6).toString('hex')}`
    await adminQuery(`create database ${name}`)
    const target = new URL(process.env.TEST_DATABASE_URL!)
    target.pathname = `/${name}`
    url = target.toString()
    cleanup = () => adminQuery(`drop database if exists ${name} with (force)`)
  } else {
    const directory = mkdtempSync(join(tmpdir(), 'kassa-test-'))
    url = `sqlite:${join(directory, 'kassa.sqlite')}`
    cleanup = async () => rmSync(directory, { recursive: true, force: true })
  }
  const database = openDatabase(url)
  if (migrate) await database.migrate()
  return {
    url,
    database,
    async destroy() {
      await database.close()
      await cleanup()
    },
  }
}
