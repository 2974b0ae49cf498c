import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COUNTERPARTIES, createCounterparty } from '../conventions/expectations.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/**
 * A long write transaction (a statement import books for seconds) holds the database's one writing
 * connection; a request whose key is not in the grant cache must still be authenticated and answered
 * at once: the grant is read on the read path (SQLite's read-only connection, PostgreSQL's pool).
 * Found by the statement import's slow test, where such requests waited 6–13 s.
 */

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ authCacheMilliseconds: 0 })
})
afterAll(() => t.close())

it('authenticates a request while another request holds a write transaction open', async () => {
  const readOnly = await t.newKey('read-only')
  const counterparty = await createCounterparty(t)
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  const writing = t.db.database.db.transaction().execute(async (trx) => {
    await trx.updateTable('organizations').set({ name: 'Busy' }).where('id', '=', t.owner.organizationId).execute()
    await held
  })
  await sleep(50)
  try {
    const started = performance.now()
    // A counterparty by id is read on the read path too, so the whole request avoids the writer.
    const response = await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}`, as: readOnly })
    expect(response.statusCode).toBe(200)
    expect(performance.now() - started).toBeLessThan(1_000)
  } finally {
    release()
    await writing
  }
})
