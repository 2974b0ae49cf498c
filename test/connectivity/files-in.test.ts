import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INBOUND_FILE_LIMIT } from '../../src/connectivity/files-in/pain002.model.js'
import { gatherDueFiles, readInboxes } from '../../src/connectivity/index.js'
import { createImportGate } from '../../src/financial-data/index.js'
import type { Credentials } from '../../src/iam/index.js'
import { createDirectDebit, createMandate, directDebitBody, endToEndIdOf, eventsOf, expectStatus, getPayment, setup, type PaymentJson, type Setup } from '../payments/lifecycle-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { xsdErrors } from './bank-files/xsd-validator.js'
import { approveAndSubmit, filesConnection, sentInOneFile, type FilesSetup } from './files-out-helpers.js'
import { writePain002 as pain002, type StatusReportDocument as GeneratedReport } from '../../src/connectivity/bank-side/index.js'

/**
 * Issue 12, files in: a pain.002 status report uploaded to its connection moves the payments of the pain.001 it
 * answers (by OrgnlMsgId, OrgnlPmtInfId and OrgnlEndToEndId) through the payments domain's listener, keeps the file
 * INBOUND with its hash, and answers the same file again with its first result.
 */
let t: TestApp
let org: Setup
let files: FilesSetup
let inboxDir: string
const generated: GeneratedReport[] = []
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  org = await setup(t)
  inboxDir = join(await mkdtemp(join(tmpdir(), 'kassa-inbox-')), 'in')
  files = await filesConnection(t, t.owner, { inboxDir })
})
afterAll(() => t.close())

const upload = (xml: string, connectionId = files.connection.id, as: Credentials = t.owner, contentType = 'application/xml') =>
  t.request({ method: 'POST', url: `/connectivity/v2/connections/${connectionId}/files`, body: xml, headers: { 'content-type': contentType }, as })

function report(spec: GeneratedReport): string {
  generated.push(spec)
  return pain002(spec)
}

/** `count` credit transfers gathered into one pain.001: its MsgId and the payments, all SENT. */
const sentFile = (count: number) => sentInOneFile(t, t.owner, files, org.supplierAccountId, Array.from({ length: count }, (_, index) => 10_00 + index))

/** The MsgId of a status report on the file (Max35Text). */
const statusId = (messageId: string, number = 0) => `S${number}-${messageId.slice(-30)}`
const statusOf = async (payment: PaymentJson) => getPayment(t, t.owner, 'CREDIT_TRANSFER', payment.id)
const e2e = (payment: PaymentJson) => endToEndIdOf(payment.id)

describe('files in: pain.002', () => {
  it('ACSC (.001.10) executes every payment of the file; the file is kept INBOUND; the same file again changes nothing (200, first result)', async () => {
    const { messageId, payments } = await sentFile(2)
    const xml = report({ version: 'pain.002.001.10', messageId: statusId(messageId), originalMessageId: messageId, groupStatus: 'ACSC' })
    const first = await upload(xml)
    expectStatus(first, 201)
    const body = first.json()
    expect(body.file).toMatchObject({ direction: 'INBOUND', messageType: 'pain.002.001.10', messageId: statusId(messageId), status: 'PROCESSED' })
    expect(body.file.paymentIds.sort()).toEqual(payments.map((payment) => payment.id).sort())
    expect(body.payments).toEqual(
      payments.map((payment) => ({
        paymentId: payment.id,
        endToEndId: e2e(payment),
        paymentInformationId: `${messageId}-1`,
        isoStatus: 'ACSC',
        previousStatus: 'SENT',
        status: 'EXECUTED',
        outcome: 'MOVED',
      })),
    )
    expect(body.unknown).toEqual({ paymentInformationIds: [], endToEndIds: [] })
    for (const payment of payments) expect((await statusOf(payment)).status).toBe('EXECUTED')
    const names = (await eventsOf(t, t.owner, 'CREDIT_TRANSFER', payments[0]!.id)).map((event) => event.name)
    expect(names.slice(-2)).toEqual(['ACCEPTED_BY_BANK', 'EXECUTED'])

    const content = await t.request({ method: 'GET', url: `/connectivity/v2/files/${body.file.id}/content` })
    expect(content.body).toBe(xml)

    const again = await upload(xml)
    expectStatus(again, 200)
    expect(again.json()).toEqual(body)
    expect((await eventsOf(t, t.owner, 'CREDIT_TRANSFER', payments[0]!.id)).map((event) => event.name)).toEqual(names)
    const inbound = await t.request({ method: 'GET', url: `/connectivity/v2/files?direction=INBOUND&connectionId=${files.connection.id}` })
    expect(inbound.json().items.filter((file: { sha256: string }) => file.sha256 === body.file.sha256)).toHaveLength(1)
  })

  it('TxSts RJCT AC04 (.001.03) fails that payment with the reason on it and its event; ACCP accepts the other', async () => {
    const { messageId, payments } = await sentFile(2)
    const [rejected, accepted] = payments as [PaymentJson, PaymentJson]
    const xml = report({
      version: 'pain.002.001.03',
      messageId: statusId(messageId),
      originalMessageId: messageId,
      groupStatus: 'PART',
      informations: [
        {
          id: `${messageId}-1`,
          status: 'PART',
          transactions: [
            { endToEndId: e2e(rejected), status: 'RJCT', reason: { code: 'AC04' } },
            { endToEndId: e2e(accepted), status: 'ACCP' },
          ],
        },
      ],
    })
    const response = await upload(xml)
    expectStatus(response, 201)
    expect(response.json().payments.map((payment: { outcome: string; status: string }) => [payment.status, payment.outcome])).toEqual([
      ['FAILED', 'MOVED'],
      ['ACCEPTED', 'MOVED'],
    ])
    expect(await statusOf(rejected)).toMatchObject({ status: 'FAILED', statusReason: { code: 'AC04', message: 'Closed account number' } })
    expect((await statusOf(accepted)).status).toBe('ACCEPTED')
    const failed = (await eventsOf(t, t.owner, 'CREDIT_TRANSFER', rejected.id)).find((event) => event.name === 'FAILED')
    expect(failed?.message).toBe(`RJCT in the pain.002.001.03 ${statusId(messageId)}: AC04 Closed account number`)
  })

  it('a group RJCT rejects every payment of the file, with NARR and its free text', async () => {
    const { messageId, payments } = await sentFile(2)
    const xml = report({
      version: 'pain.002.001.10',
      messageId: statusId(messageId),
      originalMessageId: messageId,
      groupStatus: 'RJCT',
      groupReason: { code: 'NARR', additionalInformation: 'Debtor account blocked by compliance' },
      // A lower level cannot overrule a rejected group.
      informations: [{ id: `${messageId}-1`, transactions: [{ endToEndId: e2e(payments[0]!), status: 'ACSC' }] }],
    })
    expectStatus(await upload(xml), 201)
    for (const payment of payments) {
      expect(await statusOf(payment)).toMatchObject({ status: 'FAILED', statusReason: { code: 'NARR', message: 'Debtor account blocked by compliance' } })
    }
  })

  it('PART with mixed transactions (.001.10): ACSC, RJCT AM04, PDNG; a payment the report does not name is listed, unchanged', async () => {
    const { messageId, payments } = await sentFile(4)
    const [executed, rejected, pending, unnamed] = payments as [PaymentJson, PaymentJson, PaymentJson, PaymentJson]
    const xml = report({
      version: 'pain.002.001.10',
      messageId: statusId(messageId),
      originalMessageId: messageId,
      groupStatus: 'PART',
      informations: [
        {
          id: `${messageId}-1`,
          status: 'PART',
          transactions: [
            { endToEndId: e2e(executed), status: 'ACSC' },
            { endToEndId: e2e(rejected), status: 'RJCT', reason: { code: 'AM04' } },
            { endToEndId: e2e(pending), status: 'PDNG' },
          ],
        },
      ],
    })
    const response = await upload(xml)
    expectStatus(response, 201)
    expect((await statusOf(executed)).status).toBe('EXECUTED')
    expect(await statusOf(rejected)).toMatchObject({ status: 'FAILED', statusReason: { code: 'AM04', message: 'Insufficient funds' } })
    expect((await statusOf(pending)).status).toBe('PENDING_AT_BANK')
    expect((await statusOf(unnamed)).status).toBe('SENT')
    expect(response.json().payments.at(-1)).toEqual({ paymentId: unnamed.id, endToEndId: e2e(unnamed), paymentInformationId: `${messageId}-1`, outcome: 'NOT_REPORTED' })
    expect(response.json().file.paymentIds).toHaveLength(3)
  })

  it('reports unknown ids without failing the file, and ignores a status that would move a payment backwards', async () => {
    const { messageId, payments } = await sentFile(1)
    const [payment] = payments as [PaymentJson]
    expectStatus(await upload(report({ version: 'pain.002.001.10', messageId: statusId(messageId, 1), originalMessageId: messageId, groupStatus: 'ACSC' })), 201)
    const late = await upload(
      report({
        version: 'pain.002.001.10',
        messageId: statusId(messageId, 2),
        originalMessageId: messageId,
        informations: [
          { id: `${messageId}-1`, transactions: [{ endToEndId: e2e(payment), status: 'ACCP' }, { endToEndId: 'NOTINTHEFILE', status: 'ACSC' }] },
          { id: `${messageId}-9`, status: 'RJCT' },
        ],
      }),
    )
    expectStatus(late, 201)
    expect(late.json().payments).toEqual([
      { paymentId: payment.id, endToEndId: e2e(payment), paymentInformationId: `${messageId}-1`, isoStatus: 'ACCP', previousStatus: 'EXECUTED', status: 'EXECUTED', outcome: 'IGNORED' },
    ])
    expect(late.json().unknown).toEqual({ paymentInformationIds: [`${messageId}-9`], endToEndIds: ['NOTINTHEFILE'] })
    expect((await statusOf(payment)).status).toBe('EXECUTED')

    const nowhere = await upload(report({ version: 'pain.002.001.10', messageId: 'STS-NOWHERE', originalMessageId: 'NO-SUCH-FILE', groupStatus: 'ACSC' }))
    expectStatus(nowhere, 201)
    expect(nowhere.json()).toMatchObject({ payments: [], unknown: { originalMessageId: 'NO-SUCH-FILE' } })
  })

  it('a payment information RJCT (MD01) fails the direct debits of a pain.008 with the reason', async () => {
    await createMandate(t, t.owner, org.supplierAccountId, 'MANDATE-FILES-IN')
    const debit = await createDirectDebit(t, t.owner, directDebitBody(org.supplierAccountId, files.accountId))
    await approveAndSubmit(t, t.owner, 'DIRECT_DEBIT', debit)
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 1, failures: [] })
    const messageId = (await getPayment(t, t.owner, 'DIRECT_DEBIT', debit.id)).connectionInstructionId!
    const xml = report({
      version: 'pain.002.001.10',
      messageId: statusId(messageId),
      originalMessageId: messageId,
      originalMessageName: 'pain.008.001.08',
      informations: [{ id: `${messageId}-1`, status: 'RJCT', reason: { code: 'MD01' } }],
    })
    expectStatus(await upload(xml), 201)
    expect(await getPayment(t, t.owner, 'DIRECT_DEBIT', debit.id)).toMatchObject({ status: 'FAILED', statusReason: { code: 'MD01', message: 'No mandate' } })
  })

  it('answers a retry with the same Idempotency-Key as the first time (201, same body)', async () => {
    const { messageId } = await sentFile(1)
    const xml = report({ version: 'pain.002.001.03', messageId: statusId(messageId), originalMessageId: messageId, groupStatus: 'ACCP' })
    const send = () =>
      t.request({ method: 'POST', url: `/connectivity/v2/connections/${files.connection.id}/files`, body: xml, headers: { 'content-type': 'application/xml', 'idempotency-key': `files-in-${messageId}` } })
    const first = await send()
    expectStatus(first, 201)
    const retry = await send()
    expectStatus(retry, 201)
    expect(retry.json()).toEqual(first.json())
    expect(first.json().payments[0]).toMatchObject({ status: 'ACCEPTED', outcome: 'MOVED' })
  })

  // One import at a time in a process (issue 9): the second waits for none and gets 503; the 409 is for another process's upload or the inbox reader.
  it('two uploads of one file at once: it is applied once; the other answers its result (200) or 503 to retry', async () => {
    const { messageId, payments } = await sentFile(1)
    const xml = report({ version: 'pain.002.001.10', messageId: statusId(messageId), originalMessageId: messageId, groupStatus: 'ACSC' })
    const statuses = (await Promise.all([upload(xml), upload(xml)])).map((response) => response.statusCode).sort()
    expect([[200, 201], [201, 503]]).toContainEqual(statuses)
    expect(await t.db.database.db.selectFrom('bank_files').select('id').where('message_id', '=', statusId(messageId)).execute()).toHaveLength(1)
    expect((await eventsOf(t, t.owner, 'CREDIT_TRANSFER', payments[0]!.id)).filter((event) => event.name === 'EXECUTED')).toHaveLength(1)
  })

  it('folder mode: files dropped in the inboxDir are processed like uploads, then moved to processed/ (refused ones to refused/)', async () => {
    const { messageId, payments } = await sentFile(1)
    const xml = report({ version: 'pain.002.001.10', messageId: statusId(messageId), originalMessageId: messageId, groupStatus: 'ACSC' })
    await writeFile(join(inboxDir, 'status-1.xml'), xml)
    await writeFile(join(inboxDir, 'broken.xml'), '<Document><unclosed></Document>')
    await writeFile(join(inboxDir, '.status-2.xml.tmp'), 'still being written')
    const pass = await readInboxes(t.db.database)
    expect(pass).toMatchObject({ processed: 1, failures: [] })
    expect(pass.refused).toEqual([{ path: join(inboxDir, 'broken.xml'), message: expect.stringContaining('not well-formed XML') }])
    expect((await statusOf(payments[0]!)).status).toBe('EXECUTED')
    expect((await readdir(inboxDir)).sort()).toEqual(['.status-2.xml.tmp', 'processed', 'refused'])
    expect(await readFile(join(inboxDir, 'processed', 'status-1.xml'), 'utf8')).toBe(xml)
    expect(existsSync(join(inboxDir, 'refused', 'broken.xml'))).toBe(true)
    const kept = await t.db.database.db.selectFrom('bank_files').select(['direction', 'status', 'content']).where('message_id', '=', statusId(messageId)).execute()
    expect(kept).toEqual([{ direction: 'INBOUND', status: 'PROCESSED', content: xml }])

    // As after a crash between commit and move: the same file is still (or again) in the inbox. Its hash is known:
    // nothing changes, and it is moved beside the first without overwriting it.
    await writeFile(join(inboxDir, 'status-1.xml'), xml)
    expect(await readInboxes(t.db.database)).toEqual({ processed: 1, refused: [], failures: [] })
    expect((await readdir(join(inboxDir, 'processed'))).length).toBe(2)
    expect(await t.db.database.db.selectFrom('bank_files').select('id').where('message_id', '=', statusId(messageId)).execute()).toHaveLength(1)
  })

  it('folder mode: a file waits in the inbox while another import holds the gate, and is read on the next pass', async () => {
    const { messageId } = await sentFile(1)
    const name = 'status-gated.xml'
    await writeFile(join(inboxDir, name), report({ version: 'pain.002.001.10', messageId: statusId(messageId, 7), originalMessageId: messageId, groupStatus: 'ACSC' }))
    const gate = createImportGate()
    let release!: () => void
    const upload = gate.tryHolding(() => new Promise<void>((resolve) => (release = resolve)))
    expect(await readInboxes(t.db.database, gate)).toEqual({ processed: 0, refused: [], failures: [] })
    expect(existsSync(join(inboxDir, name))).toBe(true)
    release()
    await upload
    expect(await readInboxes(t.db.database, gate)).toEqual({ processed: 1, refused: [], failures: [] })
    expect(existsSync(join(inboxDir, name))).toBe(false)
  })

  it('folder mode: a file over the size limit is refused on its size, never read', async () => {
    const path = join(inboxDir, 'huge.xml')
    await writeFile(path, Buffer.alloc(INBOUND_FILE_LIMIT + 1, 0x20))
    const pass = await readInboxes(t.db.database)
    expect(pass).toEqual({ processed: 0, refused: [{ path, message: 'The file is larger than 16 MiB' }], failures: [] })
    expect(existsSync(join(inboxDir, 'refused', 'huge.xml'))).toBe(true)
    expect(existsSync(path)).toBe(false)
  })

  it('the generated reports are valid against the pain.002 XSDs', async () => {
    expect(generated.length).toBeGreaterThan(5)
    expect(await xsdErrors(generated.map((spec) => ({ version: spec.version, xml: pain002(spec) })))).toEqual(generated.map(() => []))
  })
})
