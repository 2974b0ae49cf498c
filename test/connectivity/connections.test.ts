import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Connection } from '../../src/connectivity/connections/index.js'
import { up as addBankConnections } from '../../src/db/migrations/0011-bank-connections.js'
import type { Credentials } from '../../src/iam/index.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { expectError, expectInvalidField, listAll } from '../payments/payments-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTestDatabase } from '../support/test-database.js'
import { CONNECTIONS, connectionBody, createConnection, patchConnection } from './connection-helpers.js'

/**
 * Issue 12: `/connectivity/v2/connections`, a resource with the conventions of every other: create with
 * defaults, get by id and external:{externalId}, list with cursors, JSON Patch with If-Match, delete with
 * If-Match and 410 afterwards, Idempotency-Key, errors naming the field, permissions, tenancy.
 * Directories on disk: connections.directories.test.ts.
 */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const FULL = {
  type: 'FILES',
  name: 'Banca Intesa, host-to-host',
  bank: { name: 'Intesa Sanpaolo', bic: 'BCITITMM' },
  messageVersions: { creditTransfers: 'pain.001.001.03', directDebits: 'pain.008.001.02' },
  initiatingParty: { name: 'Acme Italia S.r.l.', identifiers: { other: { id: 'ACME0001', schemeName: { proprietary: 'CBI' }, issuer: 'CBI' } } },
  creditorSchemeId: 'IT66ZZZA1B2C3D4E5F6G7H8',
  batchingWindowSeconds: 900,
  externalId: 'intesa-h2h',
  metadata: { costCenter: '4711' },
}

describe('creating and reading', () => {
  it('creates a connection with the 2019 message versions and a 300-second batching window by default', async () => {
    const created = await createConnection(t)
    expect(created).toEqual({
      id: expect.any(String),
      organizationId: t.owner.organizationId,
      simulatedBank: false,
      ...connectionBody(),
      messageVersions: { creditTransfers: 'pain.001.001.09', directDebits: 'pain.008.001.08' },
      batchingWindowSeconds: 300,
      metadata: {},
      version: 1,
      etag: 'version:1',
      created: expect.any(String),
      updated: created.created,
    })
  })

  it('keeps every field given, and reads it back by id, by external:{externalId} and in its CREATED event', async () => {
    const response = await t.request({ method: 'POST', url: CONNECTIONS, body: FULL })
    expect(response.statusCode, response.body).toBe(201)
    const created = response.json<Connection>()
    expect(created).toMatchObject(FULL)
    expect((await t.request({ method: 'GET', url: `${CONNECTIONS}/${created.id}` })).json()).toEqual(created)
    expect((await t.request({ method: 'GET', url: `${CONNECTIONS}/external:intesa-h2h` })).json()).toEqual(created)
    const events = (await t.request({ method: 'GET', url: `${CONNECTIONS}/${created.id}/events` })).json()
    expect(events.items).toEqual([expect.objectContaining({ id: 1, type: 'CREATED', name: 'CREATED', originator: t.owner.userId, entityVersion: 1 })])
  })

  it('takes a SANDBOX connection, and filters the list by type', async () => {
    const org = await t.newOrganization('Types GmbH')
    // A sandbox organization starts with its sandbox bank's own connection, of type SANDBOX.
    const [bank] = await listAll<Connection>(t, CONNECTIONS, org)
    expect(bank).toMatchObject({ type: 'SANDBOX', name: 'Kassa Testbank' })
    const files = await createConnection(t, {}, org)
    const sandbox = await createConnection(t, { type: 'SANDBOX', name: 'Kassa Testbank' }, org)
    expect((await listAll<Connection>(t, `${CONNECTIONS}?type=SANDBOX`, org)).map((connection) => connection.id)).toEqual([bank!.id, sandbox.id])
    expect((await listAll<Connection>(t, `${CONNECTIONS}?type=FILES`, org)).map((connection) => connection.id)).toEqual([files.id])
  })

  it('lists oldest first, page by page, and refuses a token made under another filter', async () => {
    const org = await t.newOrganization('Paging GmbH')
    // The first is the sandbox bank's own connection, which the organization started with.
    const ids = (await listAll<Connection>(t, CONNECTIONS, org)).map((connection) => connection.id)
    for (let index = 0; index < 2; index++) ids.push((await createConnection(t, { name: `Bank ${index}` }, org)).id)
    const first = await t.request({ method: 'GET', url: `${CONNECTIONS}?limit=2`, as: org })
    expect(first.json()).toMatchObject({ limit: 2, token: '', items: [{ id: ids[0] }, { id: ids[1] }] })
    const nextToken = first.json().nextToken as string
    expect(nextToken).not.toBe('')
    const second = await t.request({ method: 'GET', url: `${CONNECTIONS}?limit=2&token=${nextToken}`, as: org })
    expect(second.json()).toMatchObject({ nextToken: '', token: nextToken, items: [{ id: ids[2] }] })
    expectError(await t.request({ method: 'GET', url: `${CONNECTIONS}?limit=2&type=FILES&token=${nextToken}`, as: org }), 400, 'invalid_token')
  })
})

describe('validation: 400 naming the field', () => {
  it.each([
    ['a BIC of the wrong shape', { bank: { name: 'X', bic: 'BYLA DEM1' } }, 'bank.bic'],
    ['a BIC of no known country', { bank: { name: 'X', bic: 'ABCDXX22' } }, 'bank.bic'],
    ['an unknown message version', { messageVersions: { creditTransfers: 'pain.001.001.12' } }, 'messageVersions.creditTransfers'],
    ['a creditor scheme id failing its check digits', { creditorSchemeId: 'DE97ZZZ09999999999' }, 'creditorSchemeId'],
    ['a creditor scheme id of the wrong shape', { creditorSchemeId: 'de98zzz09999999999' }, 'creditorSchemeId'],
    ['an initiating party with a BIC and another id', { initiatingParty: { name: 'Acme', identifiers: { bic: 'BYLADEM1001', other: { id: '1', schemeName: { code: 'BANK' } } } } }, 'initiatingParty.identifiers'],
    ['an initiating party name over 70 characters', { initiatingParty: { name: 'x'.repeat(71) } }, 'initiatingParty.name'],
    ['a relative directory', { outboxDir: 'kassa/outbox' }, 'outboxDir'],
    ['a directory not in normal form', { inboxDir: '/srv/kassa/../inbox' }, 'inboxDir'],
    ['a directory on a SANDBOX connection', { type: 'SANDBOX', outboxDir: '/srv/kassa/outbox' }, 'outboxDir'],
    ['the inbox inside the outbox', { outboxDir: join(tmpdir(), 'acme'), inboxDir: join(tmpdir(), 'acme', 'in') }, 'inboxDir'],
    ['a directory outside KASSA_BANK_FILES_DIR (the test server\'s: the temporary folder)', { outboxDir: '/srv/kassa/outbox' }, 'outboxDir'],
    ['a negative batching window', { batchingWindowSeconds: -1 }, 'batchingWindowSeconds'],
    ['an unknown type', { type: 'EBICS' }, 'type'],
    ['an unknown field', { outbox: '/srv' }, 'outbox'],
  ])('refuses %s', async (_name, overrides, field) => {
    const org = await t.newOrganization('Validation GmbH')
    const response = await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody(overrides), as: org })
    expectInvalidField(response, field)
    expect(await listAll(t, `${CONNECTIONS}?type=FILES`, org)).toEqual([])
  })

  it('says why in the message, e.g. the check digits a creditor scheme id would have', async () => {
    const response = await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody({ creditorSchemeId: 'DE97ZZZ09999999999' }) })
    expect(expectError(response, 400, 'invalid_request').message).toBe(
      'Invalid value for creditorSchemeId: fails the ISO 7064 MOD 97-10 check: its check digits would be 98',
    )
  })

  it('refuses an externalId already used by a connection of the organization: 409', async () => {
    await createConnection(t, { externalId: 'taken' })
    expectError(await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody({ externalId: 'taken' }) }), 409, 'external_id_taken')
  })
})

describe('PATCH', () => {
  it('applies a JSON Patch with If-Match: a new version, its UPDATED event', async () => {
    const created = await createConnection(t, { creditorSchemeId: 'DE98ZZZ09999999999', metadata: { a: '1' } })
    const response = await patchConnection(t, created.id, created.etag, [
      { op: 'replace', path: '/name', value: 'DKB, EBICS T' },
      { op: 'replace', path: '/messageVersions/creditTransfers', value: 'pain.001.001.03' },
      { op: 'add', path: '/initiatingParty/identifiers', value: { bic: 'BYLADEM1001' } },
      { op: 'remove', path: '/creditorSchemeId' },
      { op: 'replace', path: '/batchingWindowSeconds', value: 0 },
      { op: 'add', path: '/metadata/b', value: '2' },
    ])
    expect(response.statusCode, response.body).toBe(200)
    const { creditorSchemeId: _removed, ...unchanged } = created
    expect(response.json()).toEqual({
      ...unchanged,
      name: 'DKB, EBICS T',
      messageVersions: { creditTransfers: 'pain.001.001.03', directDebits: 'pain.008.001.08' },
      initiatingParty: { name: 'Acme GmbH', identifiers: { bic: 'BYLADEM1001' } },
      batchingWindowSeconds: 0,
      metadata: { a: '1', b: '2' },
      version: 2,
      etag: 'version:2',
      updated: response.json().updated,
    })
    const events = (await t.request({ method: 'GET', url: `${CONNECTIONS}/${created.id}/events` })).json()
    expect(events.items.map((event: { name: string; entityVersion: number }) => [event.name, event.entityVersion])).toEqual([['CREATED', 1], ['UPDATED', 2]])
  })

  it('needs If-Match (428), refuses a stale one (412), and changes nothing then', async () => {
    const created = await createConnection(t)
    const rename = [{ op: 'replace', path: '/name', value: 'Renamed' }]
    expectError(await patchConnection(t, created.id, undefined, rename), 428, 'precondition_required')
    expectError(await patchConnection(t, created.id, 'version:7', rename), 412, 'precondition_failed')
    expect((await t.request({ method: 'GET', url: `${CONNECTIONS}/${created.id}` })).json()).toEqual(created)
  })

  it('refuses what the rules do not allow: the type, an unknown path, a patched BIC of no country', async () => {
    const created = await createConnection(t)
    expectError(await patchConnection(t, created.id, created.etag, [{ op: 'replace', path: '/type', value: 'SANDBOX' }]), 400, 'invalid_patch')
    expectError(await patchConnection(t, created.id, created.etag, [{ op: 'add', path: '/nickname', value: 'x' }]), 400, 'invalid_patch')
    expectInvalidField(await patchConnection(t, created.id, created.etag, [{ op: 'replace', path: '/bank/bic', value: 'ABCDXX22' }]), 'bank.bic')
    expect((await t.request({ method: 'GET', url: `${CONNECTIONS}/${created.id}` })).json()).toEqual(created)
  })
})

describe('DELETE', () => {
  it('needs If-Match, then deletes: 410 Gone on every method afterwards, no longer listed, its history kept', async () => {
    const created = await createConnection(t, { externalId: 'to-delete' })
    expectError(await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${created.id}` }), 428, 'precondition_required')
    expectError(await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${created.id}`, headers: { 'if-match': 'version:2' } }), 412, 'precondition_failed')
    const deleted = await t.request({ method: 'DELETE', url: `${CONNECTIONS}/external:to-delete`, headers: { 'if-match': created.etag } })
    expect(deleted.statusCode, deleted.body).toBe(204)
    expectError(await t.request({ method: 'GET', url: `${CONNECTIONS}/${created.id}` }), 410, 'gone')
    expectError(await t.request({ method: 'GET', url: `${CONNECTIONS}/external:to-delete` }), 410, 'gone')
    expectError(await patchConnection(t, created.id, 'version:2', [{ op: 'replace', path: '/name', value: 'x' }]), 410, 'gone')
    expectError(await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${created.id}`, headers: { 'if-match': 'version:2' } }), 410, 'gone')
    expect((await listAll<Connection>(t, CONNECTIONS)).map((connection) => connection.id)).not.toContain(created.id)
    const events = (await t.request({ method: 'GET', url: `${CONNECTIONS}/${created.id}/events` })).json()
    expect(events.items.at(-1)).toMatchObject({ type: 'DELETED', name: 'DELETED', entityVersion: 2 })
  })
})

describe('Idempotency-Key', () => {
  it('replays a retried create and creates one connection; the key with another body is a 422', async () => {
    const org = await t.newOrganization('Retry GmbH')
    const headers = { 'idempotency-key': 'create-dkb' }
    const first = await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody(), headers, as: org })
    const retry = await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody(), headers, as: org })
    expect(retry.statusCode).toBe(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.json()).toEqual(first.json())
    expect(await listAll(t, `${CONNECTIONS}?type=FILES`, org)).toHaveLength(1)
    expectError(await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody({ name: 'Other' }), headers, as: org }), 422, 'idempotency_key_reused')
  })
})

describe('permissions and tenancy', () => {
  let readOnly: Credentials
  let admin: Credentials
  let mine: Connection
  beforeAll(async () => {
    readOnly = await t.newKey('read-only')
    admin = await t.newKey('admin')
    mine = await createConnection(t, { externalId: 'mine' })
  })

  it('lets a read-only key read and nothing else: 403 on create, PATCH and DELETE', async () => {
    expect((await t.request({ method: 'GET', url: `${CONNECTIONS}/${mine.id}`, as: readOnly })).statusCode).toBe(200)
    expect((await t.request({ method: 'GET', url: CONNECTIONS, as: readOnly })).statusCode).toBe(200)
    expectError(await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody(), as: readOnly }), 403, 'forbidden')
    expectError(await patchConnection(t, mine.id, mine.etag, [{ op: 'replace', path: '/name', value: 'x' }], readOnly), 403, 'forbidden')
    expectError(await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${mine.id}`, headers: { 'if-match': mine.etag }, as: readOnly }), 403, 'forbidden')
  })

  it('lets an admin create, update and delete', async () => {
    const created = await createConnection(t, {}, admin)
    const patched = await patchConnection(t, created.id, created.etag, [{ op: 'replace', path: '/name', value: 'By admin' }], admin)
    expect(patched.statusCode, patched.body).toBe(200)
    expect((await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${created.id}`, headers: { 'if-match': patched.json().etag }, as: admin })).statusCode).toBe(204)
  })

  it('hides a connection from other organizations: 404 on every route, absent from their list', async () => {
    const stranger = await t.newOrganization('Stranger')
    for (const ref of [mine.id, 'external:mine']) {
      expectError(await t.request({ method: 'GET', url: `${CONNECTIONS}/${ref}`, as: stranger }), 404, 'not_found')
      expectError(await t.request({ method: 'GET', url: `${CONNECTIONS}/${ref}/events`, as: stranger }), 404, 'not_found')
      expectError(await patchConnection(t, ref, mine.etag, [{ op: 'replace', path: '/name', value: 'Taken over' }], stranger), 404, 'not_found')
      expectError(await t.request({ method: 'DELETE', url: `${CONNECTIONS}/${ref}`, headers: { 'if-match': mine.etag }, as: stranger }), 404, 'not_found')
    }
    expect(await listAll(t, `${CONNECTIONS}?type=FILES`, stranger)).toEqual([])
    expect((await t.request({ method: 'GET', url: `${CONNECTIONS}/${mine.id}` })).json()).toEqual(mine)
  })

  it('migration 0011 gives the built-in roles of organizations made before it their connection permissions', async () => {
    const db = await createTestDatabase()
    try {
      const earlier = await createSandboxOrganization(db.database, 'Made before 0011')
      const roles = db.database.db.selectFrom('roles').select(['builtin', 'permissions']).where('organization_id', '=', earlier.organizationId).orderBy('builtin')
      const now = await roles.execute()
      // As 0010 left them: the same roles without the connection permissions, and no table yet.
      for (const role of now) {
        const older = (JSON.parse(role.permissions) as string[]).filter((permission) => !permission.startsWith('connections:'))
        await db.database.db.updateTable('roles').set({ permissions: JSON.stringify(older) }).where('organization_id', '=', earlier.organizationId).where('builtin', '=', role.builtin).execute()
      }
      // 0013's and 0015's file tables refer to the connections: gone too, as before 0011.
      for (const table of ['simulated_bank_answers', 'simulated_bank_intake', 'bank_file_items', 'bank_files', 'bank_connections']) {
        await db.database.db.schema.dropTable(table).execute()
      }
      await addBankConnections(db.database.db as Kysely<unknown>)
      expect(await roles.execute()).toEqual(now)
      const granted = Object.fromEntries(now.map((role) => [role.builtin, (JSON.parse(role.permissions) as string[]).filter((permission) => permission.startsWith('connections:'))]))
      const all = ['connections:read', 'connections:create', 'connections:update', 'connections:delete']
      expect(granted).toEqual({ admin: all, owner: all, 'read-only': ['connections:read'] })
    } finally {
      await db.destroy()
    }
  })
})
