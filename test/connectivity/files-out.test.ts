import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatherDueFiles, writePendingFiles } from '../../src/connectivity/index.js'
import type { BankFilesTable } from '../../src/db/schema.js'
import {
  addDays,
  createDirectDebit,
  createMandate,
  createTransfer,
  directDebitBody,
  endToEndIdOf,
  eventsOf,
  expectStatus,
  getPayment,
  setup,
  todayUtc,
  transferBody,
  approveAsOwner,
  settled,
  until,
  BASE,
  type Setup,
} from '../payments/lifecycle-helpers.js'
import { expectError } from '../payments/payments-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { xsdErrors } from './bank-files/xsd-validator.js'
import { approveAndSubmit, elementTexts, filesConnection, OWN_IBAN, type FilesSetup } from './files-out-helpers.js'

/**
 * Issue 12, files out: approved payments of an account on a FILES connection wait in PENDING_SUBMISSION,
 * queued; once the connection's batching window has passed the payment worker's pass makes one pain.001 or
 * pain.008 per connection, account, scheme and date, valid against the official XSD, and moves its payments to
 * SENT (the file's MsgId as their connectionInstructionId) in the transaction that records the file; after
 * commit it writes the file to the outboxDir, atomically and never over another file. The worker is off here:
 * the tests run its steps (submitPayment, gatherDueFiles, writePendingFiles) one by one.
 */
let t: TestApp
let org: Setup
let files: FilesSetup
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  org = await setup(t)
  files = await filesConnection(t, t.owner)
})
afterAll(() => t.close())

const LONG_NAME = 'Aktiengesellschaft für Feinmechanik, Optik und Präzisionsinstrumente Nord-Ost'

async function counterpartyAccount(legalName: string, iban: string, address?: Record<string, string>): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/payments/v2/counterparties',
    body: { legalName, partyType: 'COMPANY', ...(address ? { address } : {}), accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: iban }] }] },
  })
  expectStatus(response, 201)
  return response.json<{ accounts: Array<{ id: string }> }>().accounts[0]!.id
}

async function filesOf(connectionId: string): Promise<BankFilesTable[]> {
  return t.db.database.db.selectFrom('bank_files').selectAll().where('connection_id', '=', connectionId).orderBy('id').execute()
}

describe('files out', () => {
  it('gathers credit transfers and a direct debit into one valid file per group; payments SENT with events; the outbox gets the same bytes', async () => {
    const longNamed = await counterpartyAccount(LONG_NAME, 'DE89370400440532013000', { city: 'Rostock', country: 'DE', postalCode: '18055', streetName: 'Am Strande', streetNumber: '3' })
    const first = await createTransfer(t, t.owner, transferBody(files.accountId, org.supplierAccountId, { amount: { currency: 'EUR', value: 100_00 } }))
    const second = await createTransfer(t, t.owner, transferBody(files.accountId, longNamed, { amount: { currency: 'EUR', value: 25_50 }, reference: 'Invoice 2026-115' }))
    const withdrawn = await createTransfer(t, t.owner, transferBody(files.accountId, org.supplierAccountId, { amount: { currency: 'EUR', value: 7_00 } }))
    const tomorrow = await createTransfer(t, t.owner, transferBody(files.accountId, org.supplierAccountId, { date: addDays(todayUtc(), 1), amount: { currency: 'EUR', value: 3_00 } }))
    await createMandate(t, t.owner, org.supplierAccountId, 'MANDATE-FILES-1')
    const debit = await createDirectDebit(t, t.owner, directDebitBody(org.supplierAccountId, files.accountId))
    for (const payment of [first, second, withdrawn, tomorrow]) await approveAndSubmit(t, t.owner, 'CREDIT_TRANSFER', payment)
    await approveAndSubmit(t, t.owner, 'DIRECT_DEBIT', debit)
    expect((await getPayment(t, t.owner, 'CREDIT_TRANSFER', first.id)).status).toBe('PENDING_SUBMISSION')

    // Cancelled while queued: it never reaches a file.
    expectStatus(await t.request({ method: 'POST', url: `${BASE.CREDIT_TRANSFER}/${withdrawn.id}:cancel` }), 202)

    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 3, failures: [] })
    const made = await filesOf(files.connection.id)
    expect(made.map((file) => file.message_type).sort()).toEqual(['pain.001.001.09', 'pain.001.001.09', 'pain.008.001.08'])
    expect(await xsdErrors(made.map((file) => ({ version: file.message_type as 'pain.001.001.09', xml: file.content })))).toEqual([[], [], []])
    expect(new Set(made.map((file) => file.message_id)).size).toBe(3)

    const today = made.find((file) => JSON.parse(file.payment_ids).includes(first.id))!
    expect(JSON.parse(today.payment_ids)).toEqual([first.id, second.id])
    expect(elementTexts(today.content, 'MsgId')).toEqual([today.message_id])
    expect(elementTexts(today.content, 'NbOfTxs')).toEqual(['2', '2'])
    expect(elementTexts(today.content, 'CtrlSum')).toEqual(['125.50', '125.50'])
    expect(elementTexts(today.content, 'EndToEndId')).toEqual([endToEndIdOf(first.id), endToEndIdOf(second.id)])
    expect(elementTexts(today.content, 'IBAN')).toEqual([OWN_IBAN, 'DE89370400440532013000', 'DE89370400440532013000'])
    expect(elementTexts(today.content, 'Ustrd')).toEqual(['Invoice 2026-114', 'Invoice 2026-115'])
    expect(elementTexts(today.content, 'Nm')).toContain(Array.from(LONG_NAME).slice(0, 70).join('').trimEnd())
    expect(elementTexts(today.content, 'TwnNm')).toEqual(['Rostock'])
    expect(today.size).toBe(Buffer.byteLength(today.content))
    expect(today.status).toBe('PENDING_WRITE')

    const collection = made.find((file) => file.message_type === 'pain.008.001.08')!
    expect(JSON.parse(collection.payment_ids)).toEqual([debit.id])
    expect(elementTexts(collection.content, 'MndtId')).toEqual(['MANDATE-FILES-1'])
    expect(elementTexts(collection.content, 'DtOfSgntr')).toEqual(['2026-01-15'])
    expect(elementTexts(collection.content, 'SeqTp')).toEqual(['FRST'])
    expect(elementTexts(collection.content, 'CtrlSum')).toEqual(['49.90', '49.90'])
    expect(collection.content).toContain('<Id>DE98ZZZ09999999999</Id>')

    for (const [kind, payment, file] of [
      ['CREDIT_TRANSFER', first, today],
      ['CREDIT_TRANSFER', second, today],
      ['DIRECT_DEBIT', debit, collection],
    ] as const) {
      expect(await getPayment(t, t.owner, kind, payment.id)).toMatchObject({ status: 'SENT', connectionInstructionId: file.message_id })
      expect((await eventsOf(t, t.owner, kind, payment.id)).at(-1)).toMatchObject({ name: 'SENT_TO_BANK', message: `Sent to the bank in the ${file.message_type} file ${file.message_id}` })
    }
    expect((await getPayment(t, t.owner, 'CREDIT_TRANSFER', withdrawn.id)).status).toBe('CANCELLED')
    expect(made.some((file) => file.content.includes(endToEndIdOf(withdrawn.id)))).toBe(false)
    expectError(await t.request({ method: 'POST', url: `${BASE.CREDIT_TRANSFER}/${first.id}:cancel` }), 409, 'conflict')

    // A second pass finds nothing left to gather.
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 0, failures: [] })

    expect(await writePendingFiles(t.db.database)).toEqual([])
    expect((await readdir(files.outboxDir)).sort()).toEqual(made.map((file) => `${file.message_id}.xml`).sort())
    for (const file of made) expect(await readFile(join(files.outboxDir, `${file.message_id}.xml`), 'utf8')).toBe(file.content)
    expect((await filesOf(files.connection.id)).map((file) => file.status)).toEqual(['WRITTEN', 'WRITTEN', 'WRITTEN'])
  })

  it('waits for the batching window of the oldest payment, and never writes over a file already in the outbox', async () => {
    const other = await t.newOrganization('Window GmbH')
    const otherSetup = await setup(t, other)
    const windowed = await filesConnection(t, other, { batchingWindowSeconds: 300 })
    const payment = await createTransfer(t, other, transferBody(windowed.accountId, otherSetup.supplierAccountId))
    await approveAndSubmit(t, other, 'CREDIT_TRANSFER', payment)
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 0, failures: [] })
    expect(await gatherDueFiles(t.db.database, new Date(Date.now() + 301_000))).toEqual({ made: 1, failures: [] })
    const [file] = await filesOf(windowed.connection.id)

    // Another file has the name: the write fails, the file stays PENDING_WRITE, and the stranger is untouched.
    await writeFile(join(windowed.outboxDir, `${file!.message_id}.xml`), 'not ours')
    const failures = await writePendingFiles(t.db.database)
    expect(failures.map((failure) => failure.fileId)).toEqual([file!.id])
    expect((await filesOf(windowed.connection.id))[0]!.status).toBe('PENDING_WRITE')
    expect(await readFile(join(windowed.outboxDir, `${file!.message_id}.xml`), 'utf8')).toBe('not ours')
    expect((await readdir(windowed.outboxDir)).filter((name) => name.startsWith('.'))).toEqual([])
  })

  it('keeps a group whose file cannot be written queued, with the writer’s reason, without holding up the other groups', async () => {
    const other = await t.newOrganization('Schemeless GmbH')
    const otherSetup = await setup(t, other)
    const schemeless = await filesConnection(t, other, { creditorSchemeId: undefined })
    await createMandate(t, other, otherSetup.supplierAccountId, 'MANDATE-NO-SCHEME')
    const debit = await createDirectDebit(t, other, directDebitBody(otherSetup.supplierAccountId, schemeless.accountId))
    const transfer = await createTransfer(t, other, transferBody(schemeless.accountId, otherSetup.supplierAccountId))
    await approveAndSubmit(t, other, 'DIRECT_DEBIT', debit)
    await approveAndSubmit(t, other, 'CREDIT_TRANSFER', transfer)
    const gathered = await gatherDueFiles(t.db.database)
    expect(gathered.made).toBe(1)
    expect(gathered.failures).toHaveLength(1)
    expect(String(gathered.failures[0]!.error)).toContain('creditorSchemeId')
    expect((await getPayment(t, other, 'DIRECT_DEBIT', debit.id)).status).toBe('PENDING_SUBMISSION')
    expect((await getPayment(t, other, 'CREDIT_TRANSFER', transfer.id)).status).toBe('SENT')
    // Still cancellable: it is in no file.
    expectStatus(await t.request({ method: 'POST', url: `${BASE.DIRECT_DEBIT}/${debit.id}:cancel`, as: other }), 202)
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 0, failures: [] })
  })

  it('fails a payment the file cannot carry, with the writer’s reason, and sends the rest of its group', async () => {
    const other = await t.newOrganization('Long Town GmbH')
    const otherSetup = await setup(t, other)
    const connection = await filesConnection(t, other)
    // Kassa's addresses allow 64 characters of town; pain's TwnNm allows 35.
    const created = await t.request({
      method: 'POST',
      url: '/payments/v2/counterparties',
      body: {
        legalName: 'Far Away Ltd',
        partyType: 'COMPANY',
        address: { country: 'DE', city: 'T'.repeat(40), streetName: 'Hauptstraße', streetNumber: '1', postalCode: '10115' },
        accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }] }],
      },
      as: other,
    })
    expectStatus(created, 201)
    const farAway = await createTransfer(t, other, transferBody(connection.accountId, created.json<{ accounts: Array<{ id: string }> }>().accounts[0]!.id))
    const fine = await createTransfer(t, other, transferBody(connection.accountId, otherSetup.supplierAccountId))
    await approveAndSubmit(t, other, 'CREDIT_TRANSFER', farAway)
    await approveAndSubmit(t, other, 'CREDIT_TRANSFER', fine)
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 1, failures: [] })
    const failed = await getPayment(t, other, 'CREDIT_TRANSFER', farAway.id)
    expect(failed.status).toBe('FAILED')
    expect(failed.statusReason).toMatchObject({ code: 'NARR' })
    expect(failed.statusReason!.message).toContain('townName')
    expect((await getPayment(t, other, 'CREDIT_TRANSFER', fine.id)).status).toBe('SENT')
    const [file] = await filesOf(connection.connection.id)
    expect(JSON.parse(file!.payment_ids)).toEqual([fine.id])
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 0, failures: [] })
  })

  it('sends a later collection under the same mandate as RCUR', async () => {
    const other = await t.newOrganization('Recurring GmbH')
    const otherSetup = await setup(t, other)
    const recurring = await filesConnection(t, other)
    await createMandate(t, other, otherSetup.supplierAccountId, 'MANDATE-RCUR')
    const firstDebit = await createDirectDebit(t, other, directDebitBody(otherSetup.supplierAccountId, recurring.accountId))
    await approveAndSubmit(t, other, 'DIRECT_DEBIT', firstDebit)
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 1, failures: [] })
    const next = await createDirectDebit(t, other, directDebitBody(otherSetup.supplierAccountId, recurring.accountId))
    await approveAndSubmit(t, other, 'DIRECT_DEBIT', next)
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 1, failures: [] })
    const made = await filesOf(recurring.connection.id)
    expect(made.map((file) => elementTexts(file.content, 'SeqTp'))).toEqual([['FRST'], ['RCUR']])
  })
})

describe('the payment worker', () => {
  let live: TestApp
  beforeAll(async () => {
    live = await startTestApp()
  })
  afterAll(() => live.close())

  it('submits, gathers and writes on its own: an approved payment ends SENT, in a file WRITTEN to the outbox', async () => {
    const liveOrg = await setup(live)
    const liveFiles = await filesConnection(live, live.owner)
    const payment = await createTransfer(live, live.owner, transferBody(liveFiles.accountId, liveOrg.supplierAccountId))
    await approveAsOwner(live, live.owner, 'CREDIT_TRANSFER', payment)
    const sent = await settled(live, live.owner, 'CREDIT_TRANSFER', payment.id, ['SENT'])
    const written = await until(
      () => live.db.database.db.selectFrom('bank_files').selectAll().where('connection_id', '=', liveFiles.connection.id).execute(),
      (rows) => rows.length === 1 && rows[0]!.status === 'WRITTEN',
      'the file WRITTEN',
    )
    expect(written[0]).toMatchObject({ message_id: sent.connectionInstructionId, payment_ids: JSON.stringify([payment.id]) })
    expect(await readFile(join(liveFiles.outboxDir, `${sent.connectionInstructionId}.xml`), 'utf8')).toBe(written[0]!.content)
  })
})
