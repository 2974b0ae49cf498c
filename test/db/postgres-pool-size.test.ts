import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, postgresPoolSize } from '../../src/db/database.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'

/**
 * Issue 14: KASSA_DATABASE_CONNECTIONS are the transaction connections of a machine's processes together, divided
 * among its KASSA_WORKERS — two processes of 10 each made PostgreSQL on 2 CPUs 15–20% slower than two of 5.
 */
describe('the transaction connections of a process', () => {
  it('are its share of the machine’s, rounded up, and never fewer than 2', () => {
    expect(postgresPoolSize({})).toBe(10)
    expect(postgresPoolSize({ databaseConnections: 10, workers: 2 })).toBe(5)
    expect(postgresPoolSize({ databaseConnections: 10, workers: 3 })).toBe(4)
    expect(postgresPoolSize({ databaseConnections: 3, workers: 4 })).toBe(2)
  })
})

describe.skipIf(testBackend() !== 'postgres')('a process’s transactions on PostgreSQL', () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
  })
  afterAll(async () => test?.destroy())

  it('run at most its share of the connections at once; the others wait for one, and then run', async () => {
    const database = openDatabase(test.url, { databaseConnections: 4, workers: 2 })
    try {
      let release = () => {}
      const gate = new Promise<void>((resolve) => (release = resolve))
      const backends = new Set<number>()
      let running = 0
      const transactions = [1, 2, 3].map(() =>
        database.transaction(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
          backends.add(rows[0]!.pid)
          running += 1
          await gate
        }),
      )
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(running).toBe(2)
      release()
      await Promise.all(transactions)
      expect(running).toBe(3)
      expect(backends.size).toBe(2)
    } finally {
      await database.close()
    }
  })
})
