import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isUniqueViolation } from '../../src/db/errors.js'
import { preparedInsert, preparedQuery } from '../../src/db/prepared-query.js'
import { newId } from '../../src/shared/ids.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'

/** A write whose answer goes out with the transaction's next statement on PostgreSQL (answeredWithNext). */
const insertOrganizationLast = preparedInsert('organizations', { answeredWithNext: true })

/** Organizations named like `name`, except the one named 'excluded': a named parameter plus a constant. */
const organizationsNamed = preparedQuery((db, parameter: (name: 'name') => string) =>
  db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('name', '=', parameter('name'))
    .where('environment', '=', 'SANDBOX')
    .orderBy('id'),
)

function organization(name: string, environment: 'SANDBOX' | 'LIVE' = 'SANDBOX') {
  return { id: newId(), name, environment, created: new Date().toISOString() }
}

describe('preparedQuery', () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
  })
  afterAll(async () => test?.destroy())

  it('binds each run’s values by name and keeps the constants it was built with', async () => {
    const { db } = test.database
    const first = organization('Prepared A')
    const second = organization('Prepared B')
    await db.insertInto('organizations').values([first, second, organization('Prepared A', 'LIVE')]).execute()
    expect(await organizationsNamed(db, { name: 'Prepared A' })).toEqual([{ id: first.id, name: 'Prepared A' }])
    expect(await organizationsNamed(db, { name: 'Prepared B' })).toEqual([{ id: second.id, name: 'Prepared B' }])
    expect(await organizationsNamed(db, { name: 'nobody' })).toEqual([])
  })

  it('does not see writes of a transaction still open, and sees them once it commits', async () => {
    const { database } = test
    const pending = organization('Prepared pending')
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let inserted!: () => void
    const insertedSignal = new Promise<void>((resolve) => (inserted = resolve))
    const transaction = database.transaction(async (trx) => {
      await trx.insertInto('organizations').values(pending).execute()
      expect(await organizationsNamed(trx, { name: 'Prepared pending' })).toHaveLength(1)
      inserted()
      await held
    })
    await insertedSignal
    expect(await organizationsNamed(database.db, { name: 'Prepared pending' })).toEqual([])
    release()
    await transaction
    expect(await organizationsNamed(database.db, { name: 'Prepared pending' })).toEqual([{ id: pending.id, name: 'Prepared pending' }])
  })

  it('reads nothing a rolled-back transaction wrote', async () => {
    const { database } = test
    await expect(
      database.transaction(async (trx) => {
        await trx.insertInto('organizations').values(organization('Prepared rolled back')).execute()
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await organizationsNamed(database.db, { name: 'Prepared rolled back' })).toEqual([])
  })

  describe('a write answered with the next statement', () => {
    it('is committed with the transaction, and its row is there', async () => {
      const { database } = test
      const last = organization('Answered with commit')
      await database.transaction(async (trx) => {
        await trx.insertInto('organizations').values(organization('Before the last write')).execute()
        await insertOrganizationLast(trx, last)
      })
      expect(await organizationsNamed(database.db, { name: 'Answered with commit' })).toEqual([{ id: last.id, name: last.name }])
      expect(await organizationsNamed(database.db, { name: 'Before the last write' })).toHaveLength(1)
    })

    it('fails the transaction with its own error when it fails, and nothing of the transaction is committed', async () => {
      const { database } = test
      const taken = organization('Taken id')
      await database.db.insertInto('organizations').values(taken).execute()
      const error = await database
        .transaction(async (trx) => {
          await trx.insertInto('organizations').values(organization('Written before the failing write')).execute()
          // The same primary key: a unique violation, reported by the COMMIT that follows on PostgreSQL.
          await insertOrganizationLast(trx, { ...organization('Duplicate'), id: taken.id })
        })
        .then(
          () => undefined,
          (failure: unknown) => failure,
        )
      expect(isUniqueViolation(error)).toBe(true)
      expect(await organizationsNamed(database.db, { name: 'Written before the failing write' })).toEqual([])
      expect(await organizationsNamed(database.db, { name: 'Duplicate' })).toEqual([])
    })

    it('reports its failure to a statement that follows it in the transaction, not that statement’s own answer', async () => {
      const { database } = test
      const taken = organization('Taken again')
      await database.db.insertInto('organizations').values(taken).execute()
      let followingRan = false
      const error = await database
        .transaction(async (trx) => {
          await insertOrganizationLast(trx, { ...organization('Second duplicate'), id: taken.id })
          await organizationsNamed(trx, { name: 'Taken again' })
          followingRan = true
        })
        .then(
          () => undefined,
          (failure: unknown) => failure,
        )
      expect(isUniqueViolation(error)).toBe(true)
      expect(followingRan).toBe(false)
      expect(await organizationsNamed(database.db, { name: 'Second duplicate' })).toEqual([])
    })
  })
})
