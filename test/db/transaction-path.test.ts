import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isUniqueViolation } from '../../src/db/errors.js'
import { preparedInsert, preparedStatement, runTogether } from '../../src/db/prepared-query.js'
import { transactionPathOf } from '../../src/db/read-path.js'
import { newId } from '../../src/shared/ids.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'

/**
 * Issue 14: a SQLite transaction's hot statements run synchronously on the writing connection (read-path.ts
 * TransactionPath), not through Kysely's executor. They must answer exactly as Kysely would, stop at the first failure
 * as Kysely's SQLite connection does, and a transaction object used after its end must go back through Kysely.
 * PostgreSQL has no such path: its statements keep their pipelining.
 */
const insertOrganization = preparedInsert('organizations')
const renameOrganization = preparedStatement((db, parameter: (name: 'id' | 'name') => string) =>
  db.updateTable('organizations').set({ name: parameter('name') }).where('id', '=', parameter('id')).returning(['id', 'name']),
)

function organization(name: string) {
  return { id: newId(), name, environment: 'SANDBOX' as const, created: new Date().toISOString() }
}

describe('a transaction’s statements', () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
  })
  afterAll(async () => test?.destroy())

  it(`take ${testBackend() === 'sqlite' ? 'the direct path on SQLite' : 'Kysely’s executor on PostgreSQL'}, and answer as Kysely does`, async () => {
    const { database } = test
    expect(transactionPathOf(database.db)).toBeUndefined()
    const direct = organization('Direct')
    const viaKysely = organization('Through Kysely')
    await database.transaction(async (trx) => {
      expect(transactionPathOf(trx) !== undefined).toBe(database.dialect === 'sqlite')
      const inserted = await insertOrganization(trx, direct)
      const insertedByKysely = await trx.executeQuery(insertOrganization.bind(trx, viaKysely))
      expect(inserted.rows).toEqual([])
      expect(inserted.numAffectedRows).toBe(insertedByKysely.numAffectedRows)
      expect(typeof inserted.insertId).toBe(typeof insertedByKysely.insertId)
      const [renamed, count] = await runTogether(trx, [
        renameOrganization.bind(trx, { id: direct.id, name: 'Direct, renamed' }),
        trx.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'in', [direct.id, viaKysely.id]).compile(),
      ])
      expect(renamed.rows).toEqual((await trx.executeQuery(renameOrganization.bind(trx, { id: direct.id, name: 'Direct, renamed' }))).rows)
      expect(renamed.rows).toEqual([{ id: direct.id, name: 'Direct, renamed' }])
      expect(Number(count.rows[0]!.n)).toBe(2)
    })
  })

  it.skipIf(testBackend() !== 'sqlite')('stop at the first that fails: the rest do not run, and the failure is the database’s own', async () => {
    const { database } = test
    const taken = organization('Taken')
    const after = organization('After the failure')
    await database.transaction(async (trx) => {
      await insertOrganization(trx, taken)
      const failure = await runTogether(trx, [insertOrganization.bind(trx, taken), insertOrganization.bind(trx, after)]).catch((error: unknown) => error)
      expect(isUniqueViolation(failure)).toBe(true)
      expect(await trx.selectFrom('organizations').select('id').where('id', '=', after.id).execute()).toEqual([])
    })
  })

  it('go back through Kysely once their transaction has ended', async () => {
    const trx = await test.database.db.startTransaction().execute()
    if (test.database.dialect === 'sqlite') expect(transactionPathOf(trx)).toBeDefined()
    await trx.rollback().execute()
    expect(transactionPathOf(trx)).toBeUndefined()
    // Nor while another transaction holds the connection: its statements are not the ended one's.
    const next = await test.database.db.startTransaction().execute()
    expect(transactionPathOf(trx)).toBeUndefined()
    await expect(insertOrganization(trx, organization('Into the next one'))).rejects.toThrow('Transaction is already rolled back')
    await next.rollback().execute()
    // Kysely refuses a statement on a transaction that has ended; so does the statement through the direct path's fallback.
    await expect(insertOrganization(trx, organization('Too late'))).rejects.toThrow()
  })
})
