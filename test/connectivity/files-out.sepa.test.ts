import { Document as SepaDocument } from 'sepa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gatherDueFiles } from '../../src/connectivity/index.js'
import { createTransfer, expectStatus, setup, transferBody, type PaymentJson } from '../payments/lifecycle-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { whatTheBankReads } from './bank-files/what-the-bank-reads.js'
import { approveAndSubmit, filesConnection, FILES, OWN_IBAN } from './files-out-helpers.js'

/**
 * Issue 12: a file the payment worker gathered from payments made over the API, cross-checked against the file the
 * independent `sepa` package (sepa.js) writes for the same payments, both read back by one parser into what a bank
 * acts on: counts, control sums, amounts, IBANs, names, end-to-end ids, dates and remittance information must
 * agree. The ids sepa.js makes differ in form by design (it prefixes payment information and instruction ids), so
 * those are compared apart.
 */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const SUPPLIER = { name: 'Nordlicht Consulting GmbH', iban: 'DE89370400440532013000' }

function localDate(isoDate: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number)
  return new Date(year!, month! - 1, day!)
}

/** sepa.js's file for the same payments, from what the API says of them. */
function sepaFile(version: string, messageId: string, payments: Array<PaymentJson & { reference: string }>, debtor: { name: string; bic: string }): string {
  const document = new SepaDocument(version)
  document.grpHdr.id = messageId
  document.grpHdr.created = new Date()
  document.grpHdr.initiatorName = debtor.name
  const info = document.createPaymentInfo()
  info.id = '1'
  info.batchBooking = true
  info.requestedExecutionDate = localDate(payments[0]!.date)
  info.debtorName = debtor.name
  info.debtorIBAN = OWN_IBAN
  info.debtorBIC = debtor.bic
  document.addPaymentInfo(info)
  for (const payment of payments) {
    const tx = info.createTransaction()
    tx.id = payment.id.replaceAll('-', '')
    tx.end2endId = payment.id.replaceAll('-', '')
    tx.amount = payment.amount.value / 100
    tx.currency = payment.amount.currency
    tx.remittanceInfo = payment.reference
    tx.creditorName = SUPPLIER.name
    tx.creditorIBAN = SUPPLIER.iban
    tx.creditorBIC = ''
    info.addTransaction(tx)
  }
  return document.toString()
}

/** What a bank reads, without the ids whose form differs between the generators. */
function comparable(xml: string) {
  const read = whatTheBankReads(xml)
  return {
    ...read,
    paymentInformation: read.paymentInformation.map(({ id: _id, transactions, ...information }) => ({
      ...information,
      transactions: transactions.map(({ instructionId: _instruction, ...transaction }) => transaction),
    })),
  }
}

describe('a gathered file and sepa.js’s file for the same payments', () => {
  it.each(['pain.001.001.09', 'pain.001.001.03'] as const)('agree in %s', async (version) => {
    const as = await t.newOrganization(`Cross-check ${version}`)
    const org = await setup(t, as)
    const files = await filesConnection(t, as, { messageVersions: { creditTransfers: version } })
    const payments: Array<PaymentJson & { reference: string }> = []
    for (const [index, value] of [15_02, 1, 99_999_999_99, 250_00].entries()) {
      const payment = await createTransfer(t, as, transferBody(files.accountId, org.supplierAccountId, { amount: { currency: 'EUR', value }, reference: `Invoice 2026/${index} (part 1), paid + thanks` }))
      await approveAndSubmit(t, as, 'CREDIT_TRANSFER', payment)
      payments.push(payment as PaymentJson & { reference: string })
    }
    expect(await gatherDueFiles(t.db.database)).toEqual({ made: 1, failures: [] })
    const listed = await t.request({ method: 'GET', url: `${FILES}?connectionId=${files.connection.id}`, as })
    expectStatus(listed, 200)
    const [file] = listed.json<{ items: Array<{ id: string; messageId: string }> }>().items
    const content = await t.request({ method: 'GET', url: `${FILES}/${file!.id}/content`, as })
    const ours = comparable(content.body)
    expect(ours).toEqual(comparable(sepaFile(version, file!.messageId, payments, { name: 'Acme GmbH', bic: 'BYLADEM1001' })))
    expect({ count: ours.numberOfTransactions, sum: ours.controlSum }).toEqual({ count: '4', sum: '100000265.02' })
    expect(whatTheBankReads(content.body).paymentInformation[0]!.id).toBe(`${file!.messageId}-1`)
  })
})
