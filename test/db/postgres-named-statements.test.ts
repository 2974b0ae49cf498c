import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nameStatement, runStatement } from '../../src/db/postgres-named-statements.js'
import { createTestDatabase, testBackend, type TestDatabase } from '../support/test-database.js'

/**
 * Issue 14: a hot (named) statement is described once per connection, not on every execution — node-postgres asks
 * for a RowDescription each time, 12% of a GET by id's CPU. The rows must read exactly as with a description each
 * time, and a connection opened after the table changed must read the new shape.
 */
const SELECT = 'select * from named_rows where id >= $1 order by id'
const FAILING = 'select id / $1::int as quotient from named_rows order by id'

async function connect(url: string): Promise<{ client: pg.Client; descriptions: () => number }> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  let count = 0
  ;(client as unknown as { connection: pg.Connection }).connection.on('rowDescription', () => (count += 1))
  return { client, descriptions: () => count }
}

describe.skipIf(testBackend() !== 'postgres')('a named statement on PostgreSQL', () => {
  let test: TestDatabase
  const opened: pg.Client[] = []

  beforeAll(async () => {
    test = await createTestDatabase({ migrate: false })
    const { client } = await connect(test.url)
    opened.push(client)
    await client.query("create table named_rows (id int primary key, label text, amount bigint); insert into named_rows values (1, 'one', 100), (2, null, 200)")
    nameStatement(SELECT)
    nameStatement(FAILING)
  })
  afterAll(async () => {
    await Promise.all(opened.map((client) => client.end()))
    await test?.destroy()
  })

  it('is described at its first execution on a connection only, and every execution reads the same rows', async () => {
    const { client, descriptions } = await connect(test.url)
    opened.push(client)
    const expected = [
      { id: 1, label: 'one', amount: 100 },
      { id: 2, label: null, amount: 200 },
    ]
    expect((await runStatement(client, SELECT, [1])).rows).toEqual(expected)
    expect(descriptions()).toBe(1)
    const again = await Promise.all([runStatement(client, SELECT, [1]), runStatement(client, SELECT, [2]), runStatement(client, SELECT, [3])])
    expect(again.map((result) => result.rows)).toEqual([expected, [expected[1]], []])
    expect(again[0]!.fields.map((field) => field.name)).toEqual(['id', 'label', 'amount'])
    expect(descriptions()).toBe(1)
  })

  it('fails as PostgreSQL answers, and the connection goes on', async () => {
    const { client } = await connect(test.url)
    opened.push(client)
    expect((await runStatement(client, FAILING, [1])).rows).toEqual([{ quotient: 1 }, { quotient: 2 }])
    await expect(runStatement(client, FAILING, [0])).rejects.toThrow(/division by zero/)
    expect((await runStatement(client, FAILING, [2])).rows).toEqual([{ quotient: 0 }, { quotient: 1 }])
  })

  it('reads a changed table’s new shape on a new connection; PostgreSQL refuses the old statement on the old one', async () => {
    const before = await connect(test.url)
    opened.push(before.client)
    await runStatement(before.client, SELECT, [1])
    await opened[0]!.query('alter table named_rows add column note text')
    await expect(runStatement(before.client, SELECT, [1])).rejects.toThrow(/cached plan must not change result type/)
    const after = await connect(test.url)
    opened.push(after.client)
    expect((await runStatement(after.client, SELECT, [2])).rows).toEqual([{ id: 2, label: null, amount: 200, note: null }])
    expect((await runStatement(after.client, SELECT, [2])).rows).toEqual([{ id: 2, label: null, amount: 200, note: null }])
    expect(after.descriptions()).toBe(1)
  })
})
