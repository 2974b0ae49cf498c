import { CompiledQuery, type Compilable } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { otherCollectionQuery } from '../../src/payments/lifecycle/payment.repo.js'
import { approvedPaymentsQuery } from '../../src/payments/processing/payment-submitter.js'
import { newId } from '../../src/shared/ids.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'

/**
 * Issue 14: the payment worker's reads of the payments table go through an index, never a read of the whole table
 * (migration 0024): its poll for the APPROVED queue, and a direct debit's question whether another collection under
 * its mandate went to the bank. Asked of each backend's planner: SQLite's plan names the index; PostgreSQL, told to
 * avoid reading a table whole, uses it (its small test table would otherwise be read whole, rightly).
 */
describe('the payment worker reads payments by index', () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
  })
  afterAll(async () => test?.destroy())

  async function plan(query: Compilable<unknown>): Promise<string> {
    const { sql, parameters } = query.compile()
    if (test.database.dialect === 'sqlite') {
      const { rows } = await test.database.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${sql}`, [...parameters]))
      return rows.map((row) => row.detail).join('\n')
    }
    return test.database.transaction(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'))
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${sql}`, [...parameters]))
      return rows.map((row) => row['QUERY PLAN']).join('\n')
    })
  }

  it('polls the APPROVED queue, oldest first, through payments_approved_queue', async () => {
    const text = await plan(approvedPaymentsQuery(test.database.db, 20))
    expect(text).toContain('payments_approved_queue')
    // In the index's order: no sort of its own.
    expect(text).not.toMatch(/TEMP B-TREE|Sort/)
  })

  it("asks for another collection under a mandate through payments_mandate", async () => {
    expect(await plan(otherCollectionQuery(test.database.db, newId(), newId(), ['SENT', 'PENDING_SUBMISSION']))).toContain('payments_mandate')
  })
})
