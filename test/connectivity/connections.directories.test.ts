import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection } from '../../src/connectivity/connections/index.js'
import { expectError, listAll } from '../payments/payments-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CONNECTIONS, connectionBody, createConnection, patchConnection } from './connection-helpers.js'

/**
 * A FILES connection's outboxDir and inboxDir on the server's disk (issue 12: folder mode): created when
 * missing, refused with 422 and a message saying why when the server cannot use them, and never shared
 * between connections — not even of two organizations, which would read each other's files.
 */
let t: TestApp
let root: string
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  root = mkdtempSync(join(tmpdir(), 'kassa-connections-'))
})
afterAll(async () => {
  await t.close()
  rmSync(root, { recursive: true, force: true })
})

const isDirectory = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false

describe('directories', () => {
  it('creates missing directories, nested ones included, and keeps the paths as given', async () => {
    const outboxDir = join(root, 'acme', 'dkb', 'out')
    const inboxDir = join(root, 'acme', 'dkb', 'in')
    const created = await createConnection(t, { outboxDir, inboxDir })
    expect(created).toMatchObject({ outboxDir, inboxDir })
    expect([isDirectory(outboxDir), isDirectory(inboxDir)]).toEqual([true, true])
  })

  it('answers 422 directory_unusable naming the field and why, and stores nothing', async () => {
    const org = await t.newOrganization('Unusable GmbH')
    const file = join(root, 'a-file.txt')
    writeFileSync(file, 'not a directory')
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ outboxDir: file }, 'outboxDir', 'it is not a directory'],
      [{ inboxDir: join(file, 'in') }, 'inboxDir', 'it cannot be created (a part of the path is a file, not a directory)'],
    ]
    for (const [directories, field, problem] of cases) {
      const response = await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody(directories), as: org })
      const body = expectError(response, 422, 'directory_unusable')
      expect(body.message).toBe(`The ${field} ${Object.values(directories)[0]} cannot be used: ${problem}`)
      expect(body.details).toEqual([{ code: 'directory_unusable', field, error: problem }])
    }
    expect(await listAll(t, `${CONNECTIONS}?type=FILES`, org)).toEqual([])
  })

  it('keeps every directory inside the bank files directory: 400 for a path outside, 422 for a symbolic link out', async () => {
    const org = await t.newOrganization('Wandering GmbH')
    const elsewhere = await startTestApp({ paymentWorkerIntervalMilliseconds: false, bankFilesDir: join(root, 'bank-files') })
    try {
      const owner = await elsewhere.newOrganization('Wandering GmbH')
      const outside = join(root, 'not-bank-files', 'out')
      const refused = await elsewhere.request({ method: 'POST', url: CONNECTIONS, body: connectionBody({ outboxDir: outside }), as: owner })
      expect(expectError(refused, 400, 'invalid_request').details).toEqual([
        { code: 'invalid_value', field: 'outboxDir', error: `must lie inside the server's bank files directory (KASSA_BANK_FILES_DIR): ${join(root, 'bank-files')}` },
      ])
      expect(isDirectory(outside)).toBe(false)
      mkdirSync(join(root, 'bank-files'), { recursive: true })
      mkdirSync(join(root, 'escape-target'))
      symlinkSync(join(root, 'escape-target'), join(root, 'bank-files', 'link'))
      const linked = join(root, 'bank-files', 'link', 'out')
      const escaped = await elsewhere.request({ method: 'POST', url: CONNECTIONS, body: connectionBody({ outboxDir: linked }), as: owner })
      expect(expectError(escaped, 422, 'directory_unusable').message).toBe(
        `The outboxDir ${linked} cannot be used: a symbolic link leads it out of the server's bank files directory (KASSA_BANK_FILES_DIR)`,
      )
      expect(await listAll(elsewhere, `${CONNECTIONS}?type=FILES`, owner)).toEqual([])
    } finally {
      await elsewhere.close()
    }
    expect(await listAll(t, `${CONNECTIONS}?type=FILES`, org)).toEqual([])
  })

  it('refuses a directory another connection uses, or one inside or around it, also across organizations: 409', async () => {
    const outboxDir = join(root, 'shared', 'out')
    const first = await createConnection(t, { outboxDir })
    const stranger = await t.newOrganization('Snooping GmbH')
    for (const directories of [{ inboxDir: outboxDir }, { inboxDir: join(outboxDir, 'sub') }, { outboxDir: join(root, 'shared') }]) {
      const response = await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody(directories), as: stranger })
      const body = expectError(response, 409, 'conflict')
      expect(body.message).toMatch(/is, holds or lies inside a directory another connection uses/)
      expect(body.message).not.toContain(first.id)
    }
    expect(await listAll(t, `${CONNECTIONS}?type=FILES`, stranger)).toEqual([])
  })

  it('frees a deleted connection’s directories for a new one', async () => {
    const outboxDir = join(root, 'reused', 'out')
    const first = await createConnection(t, { outboxDir })
    expect((await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${first.id}`, headers: { 'if-match': first.etag } })).statusCode).toBe(204)
    expect((await createConnection(t, { outboxDir })).outboxDir).toBe(outboxDir)
  })

  it('PATCH adds, moves and removes directories with the same checks', async () => {
    const created = await createConnection(t)
    const outboxDir = join(root, 'patched', 'out')
    const added = await patchConnection(t, created.id, created.etag, [{ op: 'add', path: '/outboxDir', value: outboxDir }])
    expect(added.statusCode, added.body).toBe(200)
    expect(isDirectory(outboxDir)).toBe(true)
    const connection = added.json<Connection>()
    const unusable = await patchConnection(t, created.id, connection.etag, [{ op: 'replace', path: '/outboxDir', value: join(root, 'a-file.txt', 'out') }])
    expectError(unusable, 422, 'directory_unusable')
    const taken = await createConnection(t, { inboxDir: join(root, 'patched', 'taken') })
    expectError(await patchConnection(t, created.id, connection.etag, [{ op: 'add', path: '/inboxDir', value: taken.inboxDir }]), 409, 'conflict')
    expect((await t.request({ method: 'GET', url: `${CONNECTIONS}/${created.id}` })).json()).toEqual(connection)
    const removed = await patchConnection(t, created.id, connection.etag, [{ op: 'remove', path: '/outboxDir' }])
    expect(removed.statusCode, removed.body).toBe(200)
    expect(removed.json().outboxDir).toBeUndefined()
    expect(isDirectory(outboxDir)).toBe(true)
  })
})
