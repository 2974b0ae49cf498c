import { mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readInboxes } from '../../src/connectivity/index.js'
import { openDatabase, type Database } from '../../src/db/database.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { filesConnection } from './files-out-helpers.js'

/**
 * Issue 14: every server process's payment worker reads the same inboxDirs. Passes of two processes at once
 * (two connections to one database, as two processes have) each find the files; a file the other took is
 * skipped, not a failure — no error line in either process — and each file is handled once.
 */
let t: TestApp
let other: Database
let inboxDir: string
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  other = openDatabase(t.db.url)
  inboxDir = join(await mkdtemp(join(tmpdir(), 'kassa-inbox-')), 'in')
  await filesConnection(t, t.owner, { inboxDir })
})
afterAll(async () => {
  await other?.close()
  await t?.close()
})

describe('two processes reading one inboxDir at once', () => {
  it('refuse each unreadable file once between them, with no failure in either', async () => {
    const names = Array.from({ length: 20 }, (_, index) => `broken-${index}.xml`)
    for (const name of names) await writeFile(join(inboxDir, name), `<Document><unclosed${name}></Document>`)
    const passes = await Promise.all([readInboxes(t.db.database), readInboxes(other)])
    expect(passes.map((pass) => pass.failures)).toEqual([[], []])
    expect(passes.flatMap((pass) => pass.refused.map((refusal) => refusal.path)).sort()).toEqual(names.map((name) => join(inboxDir, name)).sort())
    expect((await readdir(join(inboxDir, 'refused'))).sort()).toEqual([...names].sort())
    expect(await readdir(inboxDir)).toEqual(['refused'])
  })
})
