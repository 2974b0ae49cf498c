import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database, type Executor } from '../../src/db/database.js'
import { preparedInsert, preparedQuery, runTogether } from '../../src/db/prepared-query.js'
import { setupRead } from '../../src/db/setup-reads.js'
import { PAYMENT_ACCOUNT_COLUMNS } from '../../src/financial-data/accounts/account.repo.js'
import { newId } from '../../src/shared/ids.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'

/**
 * Issue 14: a setup read (db/setup-reads.ts) is answered from memory inside a SQLite transaction while its
 * organization's state token — changed by migration 0025's triggers with every change to a row such a read sees —
 * is the one it was read under. Whatever changes the row, and whatever is rolled back, the read must answer what
 * the database holds. PostgreSQL reads every time.
 */
const insertOrganization = preparedInsert('organizations')
const nameOf = preparedQuery((db, parameter: (name: 'id') => string) => db.selectFrom('organizations').select('name').where('id', '=', parameter('id')))

async function readName(trx: Executor, id: string): Promise<string | undefined> {
  const [answer] = await runTogether(trx, [setupRead(id, nameOf.bind(trx, { id }))])
  return answer.rows[0]?.name
}

function inTransaction(database: Database, id: string): Promise<string | undefined> {
  return database.transaction((trx) => readName(trx, id))
}

async function newOrganization(database: Database, name: string): Promise<string> {
  const id = newId()
  await database.transaction((trx) => insertOrganization(trx, { id, name, environment: 'SANDBOX', created: new Date().toISOString() }))
  return id
}

function rename(db: Executor, id: string, name: string) {
  return db.updateTable('organizations').set({ name }).where('id', '=', id).execute()
}

describe('setup reads', () => {
  let test: TestDatabase

  beforeAll(async () => {
    test = await createTestDatabase()
  })
  afterAll(async () => test?.destroy())

  it('see every change, made by this connection or another, in the same transaction or before it', async () => {
    const { database } = test
    const id = await newOrganization(database, 'Before')
    expect(await inTransaction(database, id)).toBe('Before')
    expect(await inTransaction(database, id)).toBe('Before')
    await database.transaction((trx) => rename(trx, id, 'Renamed by this process'))
    expect(await inTransaction(database, id)).toBe('Renamed by this process')
    // Another connection to the same file, as the CLI or a second server process would be.
    const other = openDatabase(test.url)
    try {
      await other.transaction((trx) => rename(trx, id, 'Renamed by another'))
    } finally {
      await other.close()
    }
    expect(await inTransaction(database, id)).toBe('Renamed by another')
    await database.transaction(async (trx) => {
      expect(await readName(trx, id)).toBe('Renamed by another')
      await rename(trx, id, 'Renamed in the transaction')
      expect(await readName(trx, id)).toBe('Renamed in the transaction')
    })
  })

  it('answer what is there after a rollback, and after a later change that is not the one rolled back', async () => {
    const { database } = test
    const id = await newOrganization(database, 'Kept')
    expect(await inTransaction(database, id)).toBe('Kept')
    const undone = await database
      .transaction(async (trx) => {
        await rename(trx, id, 'Undone')
        expect(await readName(trx, id)).toBe('Undone')
        throw new Error('roll back')
      })
      .catch((error: Error) => error.message)
    expect(undone).toBe('roll back')
    expect(await inTransaction(database, id)).toBe('Kept')
    // A counter rolled back would now be counted up to the number 'Undone' was read under.
    await database.transaction((trx) => rename(trx, id, 'Later'))
    expect(await inTransaction(database, id)).toBe('Later')
  })

  it.skipIf(testBackend() !== 'sqlite')('are answered from memory on SQLite: a change its triggers do not see is not seen', async () => {
    // A database of its own: a trigger is dropped for the proof.
    const own = await createTestDatabase()
    try {
      const { database } = own
      const id = await newOrganization(database, 'Remembered')
      expect(await inTransaction(database, id)).toBe('Remembered')
      // A change of a column no setup read reads keeps the token; a change behind the triggers' back is not read.
      const tokenOf = () => database.db.selectFrom('setup_state_tokens').select('token').where('organization_id', '=', id).executeTakeFirst()
      const before = await tokenOf()
      await database.transaction((trx) => trx.updateTable('organizations').set({ environment: 'LIVE' }).where('id', '=', id).execute())
      expect(await tokenOf()).toEqual(before)
      await sql`drop trigger "setup_token_organizations_update"`.execute(database.db)
      await rename(database.db, id, 'Behind its back')
      expect(await inTransaction(database, id)).toBe('Remembered')
    } finally {
      await own.destroy()
    }
  })

  it.skipIf(testBackend() !== 'sqlite')("read of a payment's own account only the identity and columns the accounts' update trigger watches", async () => {
    const { database } = test
    const [trigger] = (await sql<{ sql: string }>`select sql from sqlite_master where type = 'trigger' and name = 'setup_token_accounts_update'`.execute(database.db)).rows
    const watched = /after update of (.+?) on "accounts"/.exec(trigger?.sql ?? '')?.[1]?.split(',').map((column) => column.trim().replace(/"/g, ''))
    const identity = ['id', 'organization_id']
    expect(watched).toEqual(expect.arrayContaining(PAYMENT_ACCOUNT_COLUMNS.filter((column) => !identity.includes(column))))
  })

  it(`are ${testBackend() === 'sqlite' ? 'watched by triggers on every table they read, for each kind of change' : 'read every time on PostgreSQL: it has no triggers'}`, async () => {
    const { database } = test
    const triggers =
      database.dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and name like 'setup_token_%' order by name`.execute(database.db)).rows.map((row) => row.name)
        : (await sql<{ name: string }>`select tgname as name from pg_trigger where tgname like 'setup_token_%'`.execute(database.db)).rows.map((row) => row.name)
    const tables = ['accounts', 'approval_chains', 'bank_connections', 'organizations', 'roles', 'sandbox_accounts', 'sandbox_banks', 'webhooks']
    const expected = database.dialect === 'sqlite' ? tables.flatMap((table) => ['delete', 'insert', 'update'].map((event) => `setup_token_${table}_${event}`)) : []
    expect(triggers.sort()).toEqual(expected.sort())
  })
})
