import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/db/database.js'
import { readCache } from '../../src/db/read-cache.js'
import { newId } from '../../src/shared/ids.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'

const sqlite = testBackend() === 'sqlite'

describe('readCache', () => {
  let test: TestDatabase
  /** Another connection to the same database, as the CLI beside a running server would have. */
  let other: Database
  const organizationId = newId()

  beforeAll(async () => {
    test = await createTestDatabase()
    other = openDatabase(test.url)
    await test.database.db
      .insertInto('organizations')
      .values({ id: organizationId, name: 'Cached', environment: 'SANDBOX', created: new Date().toISOString() })
      .execute()
  })
  afterAll(async () => {
    await other?.close()
    await test?.destroy()
  })

  /** A cache whose loads read the organization's name and are counted. */
  function countedNameCache() {
    const cached = readCache<string>()
    let loads = 0
    const read = () =>
      cached(test.database.db, organizationId, async () => {
        loads += 1
        const row = await test.database.db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirstOrThrow()
        return row.name
      })
    return { read, loads: () => loads }
  }

  const rename = (database: Database, name: string) =>
    database.db.updateTable('organizations').set({ name }).where('id', '=', organizationId).execute()

  it(sqlite ? 'answers from memory while nothing is committed (SQLite)' : 'loads on every call (PostgreSQL: no cheap change check)', async () => {
    const cache = countedNameCache()
    expect(await cache.read()).toBe('Cached')
    expect(await cache.read()).toBe('Cached')
    expect(cache.loads()).toBe(sqlite ? 1 : 2)
  })

  it('reads again after this process commits a change', async () => {
    const cache = countedNameCache()
    await cache.read()
    await rename(test.database, 'Renamed here')
    expect(await cache.read()).toBe('Renamed here')
  })

  it('reads again after another connection commits a change', async () => {
    const cache = countedNameCache()
    await cache.read()
    await rename(other, 'Renamed elsewhere')
    expect(await cache.read()).toBe('Renamed elsewhere')
  })

  it('is not fooled by a transaction that is still open or rolled back', async () => {
    const cache = countedNameCache()
    const before = await cache.read()
    await expect(
      test.database.transaction(async (trx) => {
        await trx.updateTable('organizations').set({ name: 'Never committed' }).where('id', '=', organizationId).execute()
        expect(await cache.read()).toBe(before)
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await cache.read()).toBe(before)
  })

  it('does not keep a failed load', async () => {
    const cached = readCache<string>()
    await expect(cached(test.database.db, 'k', async () => Promise.reject(new Error('not found')))).rejects.toThrow('not found')
    expect(await cached(test.database.db, 'k', async () => 'found')).toBe('found')
  })
})
