import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatherDueFiles, writePendingFiles } from '../../src/connectivity/index.js'
import type { Credentials } from '../../src/iam/index.js'
import { createDirectDebit, createMandate, createTransfer, directDebitBody, setup, todayUtc, transferBody, type PaymentJson } from '../payments/lifecycle-helpers.js'
import { expectError, listAll } from '../payments/payments-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { approveAndSubmit, FILES, filesConnection, type FilesSetup } from './files-out-helpers.js'

/**
 * Issue 12: GET /connectivity/v2/files (filters, list envelope, cursors), GET …/files/{id} with the payment ids
 * the file carries, GET …/files/{id}/content (the XML as written, application/xml); connections:read; another
 * organization's file is a 404.
 */
interface FileJson {
  id: string
  connectionId: string
  direction: string
  messageType: string
  messageId: string
  status: string
  size: number
  sha256: string
  created: string
  paymentIds: string[]
}

let t: TestApp
let files: FilesSetup
let transfer: PaymentJson
let debit: PaymentJson
let listed: FileJson[]
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  const org = await setup(t)
  files = await filesConnection(t, t.owner)
  transfer = await createTransfer(t, t.owner, transferBody(files.accountId, org.supplierAccountId))
  await createMandate(t, t.owner, org.supplierAccountId, 'MANDATE-ROUTES')
  debit = await createDirectDebit(t, t.owner, directDebitBody(org.supplierAccountId, files.accountId))
  await approveAndSubmit(t, t.owner, 'CREDIT_TRANSFER', transfer)
  await approveAndSubmit(t, t.owner, 'DIRECT_DEBIT', debit)
  expect(await gatherDueFiles(t.db.database)).toEqual({ made: 2, failures: [] })
  expect(await writePendingFiles(t.db.database)).toEqual([])
  listed = await listAll<FileJson>(t, FILES)
})
afterAll(() => t.close())

describe('GET /connectivity/v2/files', () => {
  it('lists the files made, oldest first, with the payments each carries', async () => {
    expect(listed).toHaveLength(2)
    const byType = Object.fromEntries(listed.map((file) => [file.messageType, file]))
    expect(byType['pain.001.001.09']).toMatchObject({ connectionId: files.connection.id, direction: 'OUTBOUND', status: 'WRITTEN', paymentIds: [transfer.id] })
    expect(byType['pain.008.001.08']).toMatchObject({ paymentIds: [debit.id] })
    expect(listed.map((file) => file.id)).toEqual([...listed.map((file) => file.id)].sort())
  })

  it('filters by connectionId, direction, messageType and days created, and pages with nextToken', async () => {
    const ids = async (query: string) => (await listAll<FileJson>(t, `${FILES}?${query}`)).map((file) => file.id)
    const all = listed.map((file) => file.id)
    const pain001 = listed.find((file) => file.messageType === 'pain.001.001.09')!
    expect(await ids(`connectionId=${files.connection.id}`)).toEqual(all)
    expect(await ids('connectionId=01900000-0000-7000-8000-000000000000')).toEqual([])
    expect(await ids('direction=INBOUND')).toEqual([])
    expect(await ids('messageType=pain.001.001.09')).toEqual([pain001.id])
    expect(await ids(`created[gte]=${todayUtc()}&created[lte]=${todayUtc()}`)).toEqual(all)
    expect(await ids('created[lte]=2020-01-01')).toEqual([])
    expectError(await t.request({ method: 'GET', url: `${FILES}?created[gte]=2026-02-02&created[lte]=2026-02-01` }), 400, 'invalid_request')
    const first = await t.request({ method: 'GET', url: `${FILES}?limit=1` })
    expect(first.json()).toMatchObject({ items: [{ id: all[0] }] })
    const second = await t.request({ method: 'GET', url: `${FILES}?limit=1&token=${first.json().nextToken}` })
    expect(second.json()).toMatchObject({ items: [{ id: all[1] }], nextToken: '' })
    expectError(await t.request({ method: 'GET', url: `${FILES}?limit=1&direction=OUTBOUND&token=${first.json().nextToken}` }), 400, 'invalid_token')
  })
})

describe('GET /connectivity/v2/files/{id} and …/content', () => {
  it('gets a file, and its content as written: application/xml, the bytes of the outbox, its size and sha256', async () => {
    for (const file of listed) {
      const one = await t.request({ method: 'GET', url: `${FILES}/${file.id}` })
      expect(one.statusCode).toBe(200)
      expect(one.json()).toEqual(file)
      const content = await t.request({ method: 'GET', url: `${FILES}/${file.id}/content` })
      expect(content.statusCode).toBe(200)
      expect(content.headers['content-type']).toBe('application/xml; charset=utf-8')
      expect(content.body).toBe(await readFile(join(files.outboxDir, `${file.messageId}.xml`), 'utf8'))
      expect(content.rawPayload.length).toBe(file.size)
      expect(createHash('sha256').update(content.rawPayload).digest('hex')).toBe(file.sha256)
    }
  })

  it('answers 404 for an unknown file and for another organization’s; 403 without connections:read', async () => {
    const other: Credentials = await t.newOrganization('Nosy GmbH')
    const [file] = listed
    expectError(await t.request({ method: 'GET', url: `${FILES}/01900000-0000-7000-8000-000000000000` }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${FILES}/${file!.id}`, as: other }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${FILES}/${file!.id}/content`, as: other }), 404, 'not_found')
    expect((await listAll<FileJson>(t, FILES, other))).toEqual([])
    const role = await t.request({ method: 'POST', url: '/iam/v2/roles', body: { name: 'payments only', permissions: ['credit_transfers:read'] } })
    expect(role.statusCode, role.body).toBe(201)
    const reader = await t.newKey('payments only')
    for (const url of [FILES, `${FILES}/${file!.id}`, `${FILES}/${file!.id}/content`]) expectError(await t.request({ method: 'GET', url, as: reader }), 403, 'forbidden')
    expect((await t.request({ method: 'GET', url: `${FILES}/${file!.id}/content`, as: await t.newKey('read-only') })).statusCode).toBe(200)
  })
})
