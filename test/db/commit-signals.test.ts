import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { raiseAfterCommit } from '../../src/db/commit-signals.js'
import { newId } from '../../src/shared/ids.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'

/** Issue 14: what a transaction raises is heard once, after its commit, and never after a rollback. */
describe('commit signals', () => {
  let test: TestDatabase
  const heard: string[] = []
  beforeAll(async () => {
    test = await createTestDatabase()
    test.database.onCommit('due', () => heard.push('due'))
    test.database.onCommit('other', () => heard.push('other'))
  })
  afterAll(() => test?.destroy())

  function insertOrganization(trx: Parameters<Parameters<TestDatabase['database']['transaction']>[0]>[0]) {
    return trx.insertInto('organizations').values({ id: newId(), name: 'Signals', environment: 'SANDBOX', created: new Date().toISOString() }).execute()
  }

  it('tells the listeners of a raised signal once, after the commit, however often it was raised', async () => {
    heard.length = 0
    await test.database.transaction(async (trx) => {
      await insertOrganization(trx)
      raiseAfterCommit(trx, 'due')
      raiseAfterCommit(trx, 'due')
      expect(heard).toEqual([])
    })
    expect(heard).toEqual(['due'])
  })

  it('tells no one of a transaction that raised nothing, or of one that rolled back', async () => {
    heard.length = 0
    await test.database.transaction(insertOrganization)
    await expect(
      test.database.transaction(async (trx) => {
        await insertOrganization(trx)
        raiseAfterCommit(trx, 'due')
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(heard).toEqual([])
  })

  it('stops telling a listener once it is stopped', async () => {
    heard.length = 0
    const stop = test.database.onCommit('due', () => heard.push('second'))
    await test.database.transaction(async (trx) => raiseAfterCommit(trx, 'due'))
    stop()
    await test.database.transaction(async (trx) => raiseAfterCommit(trx, 'due'))
    expect(heard).toEqual(['due', 'second', 'due'])
  })
})
