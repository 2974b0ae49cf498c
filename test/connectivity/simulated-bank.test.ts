import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deliverAnswers, gatherDueFiles, readInboxes, takeFiles, writePendingFiles } from '../../src/connectivity/index.js'
import type { Connection } from '../../src/connectivity/connections/index.js'
import { advanceClock, bankToday, createTransfer, eventsOf, expectStatus, externalAccount, getPayment, type PaymentJson } from '../payments/lifecycle-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { xsdErrors, type Document } from './bank-files/xsd-validator.js'
import { createConnection } from './connection-helpers.js'
import { approveAndSubmit, FILES } from './files-out-helpers.js'

/**
 * Issue 12, the sandbox bank behind files: a sandbox organization's FILES connection whose other side is the
 * simulated bank. Its pain.001 is taken by the bank, which answers with a pain.002 and, once it books, a camt.054;
 * those files — valid against their XSDs — move and reconcile the payments as a real bank's would. The steps of
 * the payment worker are run one by one here, in its order.
 */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

interface Channel {
  connection: Connection
  accountId: string
  supplierId: string
}

let ibans = 0
const OWN_IBANS = ['DE75512108001245126199', 'DE02100100109307118603', 'DE12500105170648489890']

async function channel(overrides: Record<string, unknown> = {}): Promise<Channel> {
  const connection = await createConnection(t, { simulatedBank: true, batchingWindowSeconds: 0, ...overrides }, t.owner)
  const iban = OWN_IBANS[ibans++]!
  const account = await t.request({
    method: 'POST',
    url: '/financial-data/v2/accounts',
    body: { name: 'Files account', market: 'DE', currency: 'EUR', bank: { name: 'Kassa Testbank', bic: 'KASADEFFXXX' }, identifiers: [{ market: 'DE', type: 'IBAN', number: iban }], connectionId: connection.id },
    as: t.owner,
  })
  expectStatus(account, 201)
  return { connection, accountId: account.json().id, supplierId: await externalAccount(t, t.owner, 'Nordlicht Consulting GmbH', 'DE89370400440532013000') }
}

async function sendTransfer(from: Channel, value: number, destinationId = from.supplierId): Promise<PaymentJson> {
  const payment = await createTransfer(t, t.owner, {
    amount: { currency: 'EUR', value },
    date: await bankToday(t, t.owner),
    scheme: 'SCT',
    source: { type: 'ACCOUNT', id: from.accountId },
    destination: { type: 'EXTERNAL_ACCOUNT', id: destinationId },
    reference: 'Invoice 2026-114',
  })
  await approveAndSubmit(t, t.owner, 'CREDIT_TRANSFER', payment)
  return payment
}

/** One pass of the worker's files steps: gather, write, the bank takes, its answers delivered, inboxes read. */
async function filesPass(): Promise<void> {
  expect((await gatherDueFiles(t.db.database)).failures).toEqual([])
  expect(await writePendingFiles(t.db.database)).toEqual([])
  expect((await takeFiles(t.db.database)).failures).toEqual([])
  expect((await deliverAnswers(t.db.database)).failures).toEqual([])
  expect((await readInboxes(t.db.database)).failures).toEqual([])
}

const statusOf = async (payment: PaymentJson) => getPayment(t, t.owner, 'CREDIT_TRANSFER', payment.id)

async function inboundFiles(connectionId: string): Promise<Array<{ id: string; messageType: string }>> {
  const response = await t.request({ method: 'GET', url: `${FILES}?connectionId=${connectionId}&direction=INBOUND&limit=500`, as: t.owner })
  expectStatus(response, 200)
  return response.json().items
}

async function expectValidAnswers(connectionId: string): Promise<string[]> {
  const files = await inboundFiles(connectionId)
  const documents: Document[] = []
  for (const file of files) {
    const content = await t.request({ method: 'GET', url: `${FILES}/${file.id}/content`, as: t.owner })
    documents.push({ version: file.messageType as Document['version'], xml: content.body })
  }
  expect(await xsdErrors(documents)).toEqual(documents.map(() => []))
  return files.map((file) => file.messageType)
}

describe('the simulated bank behind a FILES connection', () => {
  it('refuses simulatedBank outside FILES', async () => {
    const response = await t.request({ method: 'POST', url: '/connectivity/v2/connections', body: { type: 'SANDBOX', simulatedBank: true, name: 'x', bank: { name: 'x', bic: 'KASADEFFXXX' }, initiatingParty: { name: 'x' } }, as: t.owner })
    expectStatus(response, 400)
    expect(response.json().details[0].field).toBe('simulatedBank')
  })

  it('round trip: pain.001 → pain.002 ACCP → the bank executes → camt.054 → RECONCILED; a .04 amount RJCT AC04; a RETURN name RETURNED MD06', async () => {
    const files = await channel()
    const returning = await externalAccount(t, t.owner, 'RETURN Handelsgesellschaft', 'DE02370502990000684712')
    const paid = await sendTransfer(files, 120_00)
    const rejected = await sendTransfer(files, 12_04)
    const returned = await sendTransfer(files, 75_00, returning)
    await filesPass()
    expect((await statusOf(paid)).status).toBe('ACCEPTED')
    const failed = await statusOf(rejected)
    expect(failed.status).toBe('FAILED')
    expect(failed.statusReason).toMatchObject({ code: 'AC04' })
    expect((await statusOf(returned)).status).toBe('ACCEPTED')

    await advanceClock(t, t.owner, { days: 0 })
    // The bank booked; until its camt.054 arrives the payments have not heard of it.
    expect((await statusOf(paid)).status).toBe('ACCEPTED')
    await filesPass()
    const reconciled = await statusOf(paid)
    expect(reconciled.status).toBe('RECONCILED')
    expect(reconciled.attachedTransactions).toHaveLength(1)
    const booked = (await t.request({ method: 'GET', url: `/financial-data/v2/transactions/${reconciled.attachedTransactions[0]!.id}`, as: t.owner })).json()
    expect(booked).toMatchObject({ accountId: files.accountId, amount: { value: -120_00 }, reconciliationStatus: 'RECONCILED' })
    const back = await statusOf(returned)
    expect(back.status).toBe('RETURNED')
    expect(back.statusReason).toMatchObject({ code: 'MD06' })
    expect((await eventsOf(t, t.owner, 'CREDIT_TRANSFER', paid.id)).map((event) => event.name)).toEqual(
      expect.arrayContaining(['SENT_TO_BANK', 'ACCEPTED_BY_BANK', 'EXECUTED', 'RECONCILED']),
    )
    // Each booking once: the bank's own, which its camt.054 names by AcctSvcrRef (executions of two, one return).
    const transactions = await t.request({ method: 'GET', url: `/financial-data/v2/transactions?accountId=${files.accountId}`, as: t.owner })
    expect(transactions.json<{ items: Array<{ amount: { value: number } }> }>().items.map((item) => item.amount.value).sort((a, b) => a - b)).toEqual([-120_00, -75_00, 75_00])
    const types = await expectValidAnswers(files.connection.id)
    expect(types.filter((type) => type === 'pain.002.001.10')).toHaveLength(1)
    expect(types.filter((type) => type === 'camt.054.001.08').length).toBeGreaterThanOrEqual(3)
    // Nothing left: every answer delivered once, every file taken once.
    expect(await takeFiles(t.db.database)).toEqual({ taken: 0, failures: [] })
    expect(await deliverAnswers(t.db.database)).toEqual({ delivered: 0, failures: [] })
  })

  it('folder mode: the bank reads the file from the outbox and drops its answers in the inbox, where Kassa reads them', async () => {
    const root = await mkdtemp(join(tmpdir(), 'kassa-simulated-'))
    const files = await channel({ outboxDir: join(root, 'out'), inboxDir: join(root, 'in'), messageVersions: { creditTransfers: 'pain.001.001.03' } })
    const payment = await sendTransfer(files, 33_00)
    await filesPass()
    expect((await readdir(join(root, 'out'))).filter((name) => name.endsWith('.xml'))).toHaveLength(1)
    expect((await readdir(join(root, 'in', 'processed'))).filter((name) => name.startsWith('pain.002.001.03-'))).toHaveLength(1)
    expect((await statusOf(payment)).status).toBe('ACCEPTED')
    await advanceClock(t, t.owner, { days: 0 })
    await filesPass()
    expect((await statusOf(payment)).status).toBe('RECONCILED')
    expect(await expectValidAnswers(files.connection.id)).toEqual(expect.arrayContaining(['pain.002.001.03', 'camt.054.001.08']))
  })
})
