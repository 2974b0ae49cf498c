import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeCamt054, type NotificationEntry } from '../../src/connectivity/bank-side/camt054.writer.js'
import { endToEndIdOf } from '../../src/shared/ids.js'
import { eventsOf, expectStatus, getPayment, setup, type PaymentJson, type Setup } from '../payments/lifecycle-helpers.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { filesConnection, OWN_IBAN, sentInOneFile, type FilesSetup } from './files-out-helpers.js'

/**
 * Issue 12, files in: a camt.054 (or camt.053/052) received on a FILES connection books its entries on the
 * connection's accounts and reconciles them to the payments sent on it — by EndToEndId, or a batch booking by the
 * PmtInfId of its payment information — and a returned entry returns its payment with the reason.
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

let notifications = 0
/** A camt.054.001.08 of these entries on the connection's account (the writer's output is XSD-checked in test/connectivity/bank-side). */
async function camt054(entries: NotificationEntry[], iban = OWN_IBAN): Promise<string> {
  notifications += 1
  return writeCamt054({ messageId: `NTF-${notifications}-${Date.now()}`, creationDateTime: new Date(), notifications: [{ id: `N${notifications}`, account: { iban, currency: 'EUR' }, entries }] })
}

const today = new Date().toISOString().slice(0, 10)
let references = 0
/** A booked debit of the payment with its EndToEndId (or a credit returning it). */
function booking(payment: PaymentJson, options: { returned?: string; amount?: number } = {}): NotificationEntry {
  references += 1
  const amount = options.amount ?? payment.amount.value
  return {
    amount,
    creditDebit: options.returned ? 'CRDT' : 'DBIT',
    bookingDate: today,
    valueDate: today,
    accountServicerReference: `REF-${references}-${Date.now()}`,
    bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: options.returned ? 'RRTN' : 'ESCT' },
    transactions: [
      {
        references: { endToEndId: endToEndIdOf(payment.id) },
        amount,
        creditDebit: options.returned ? 'CRDT' : 'DBIT',
        ...(options.returned ? { returnReason: { code: options.returned } } : {}),
      },
    ],
  }
}

const upload = (xml: string, connectionId = files.connection.id) =>
  t.request({ method: 'POST', url: `/connectivity/v2/connections/${connectionId}/files`, body: xml, headers: { 'content-type': 'application/xml' }, as: t.owner })
const statusOf = async (payment: PaymentJson) => getPayment(t, t.owner, 'CREDIT_TRANSFER', payment.id)
const transaction = async (id: string) => (await t.request({ method: 'GET', url: `/financial-data/v2/transactions/${id}`, as: t.owner })).json()

describe('files in: camt.054', () => {
  it('books an entry with a payment’s EndToEndId and reconciles the payment (SENT → … → RECONCILED); the same file again changes nothing', async () => {
    const { payments } = await sentInOneFile(t, t.owner, files, org.supplierAccountId, [120_00])
    const payment = payments[0]!
    const xml = await camt054([booking(payment)])
    const first = await upload(xml)
    expectStatus(first, 201)
    const body = first.json()
    expect(body.file).toMatchObject({ direction: 'INBOUND', messageType: 'camt.054.001.08', status: 'PROCESSED', paymentIds: [payment.id] })
    expect(body.statement).toMatchObject({ messageType: 'camt.054.001.08', transactionsBooked: 1 })
    expect(body.bookings).toHaveLength(1)
    expect(body.bookings[0]).toMatchObject({ outcome: 'RECONCILED', paymentIds: [payment.id], endToEndId: endToEndIdOf(payment.id), amount: { value: -120_00 } })
    expect(body.payments[0]).toMatchObject({ paymentId: payment.id, previousStatus: 'SENT', status: 'RECONCILED', outcome: 'MOVED' })
    const reconciled = await statusOf(payment)
    expect(reconciled.status).toBe('RECONCILED')
    expect(reconciled.attachedTransactions).toEqual([{ type: 'TRANSACTION', id: body.bookings[0].transactionId }])
    expect((await eventsOf(t, t.owner, 'CREDIT_TRANSFER', payment.id)).map((event) => event.name)).toEqual(
      expect.arrayContaining(['SENT_TO_BANK', 'ACCEPTED_BY_BANK', 'EXECUTED', 'RECONCILED']),
    )
    const booked = await transaction(body.bookings[0].transactionId)
    expect(booked).toMatchObject({ accountId: files.accountId, reconciliationStatus: 'RECONCILED', attachedTransactables: [{ type: 'CREDIT_TRANSFER', id: payment.id }] })

    const again = await upload(xml)
    expectStatus(again, 200)
    expect(again.json()).toEqual(body)
  })

  it('returns a reconciled payment with the reason of an entry with return information (MD06)', async () => {
    const { payments } = await sentInOneFile(t, t.owner, files, org.supplierAccountId, [75_00])
    const payment = payments[0]!
    expectStatus(await upload(await camt054([booking(payment)])), 201)
    const returned = await upload(await camt054([booking(payment, { returned: 'MD06' })]))
    expectStatus(returned, 201)
    expect(returned.json().bookings[0]).toMatchObject({ outcome: 'RETURNED', paymentIds: [payment.id], amount: { value: 75_00 } })
    const after = await statusOf(payment)
    expect(after.status).toBe('RETURNED')
    expect(after.statusReason).toMatchObject({ code: 'MD06' })
    expect(after.attachedTransactions).toHaveLength(2)
    const returnEntry = await transaction(returned.json().bookings[0].transactionId)
    expect(returnEntry).toMatchObject({ returned: true, returnReason: { code: 'MD06' } })
  })

  it('settles a whole payment information with one batch booking (NtryDtls/Btch/PmtInfId, no details)', async () => {
    const { messageId, payments } = await sentInOneFile(t, t.owner, files, org.supplierAccountId, [10_00, 20_00, 30_01])
    const total = 60_01
    references += 1
    const batch: NotificationEntry = {
      amount: total,
      creditDebit: 'DBIT',
      bookingDate: today,
      valueDate: today,
      accountServicerReference: `BATCH-${references}-${Date.now()}`,
      bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' },
      batch: { messageId, paymentInformationId: `${messageId}-1`, numberOfTransactions: 3, total: { amount: total, creditDebit: 'DBIT' } },
      transactions: [],
    }
    const response = await upload(await camt054([batch]))
    expectStatus(response, 201)
    const [settled] = response.json().bookings
    expect(settled).toMatchObject({ outcome: 'RECONCILED', paymentInformationId: `${messageId}-1`, amount: { value: -total } })
    expect(settled.paymentIds.sort()).toEqual(payments.map((payment) => payment.id).sort())
    for (const payment of payments) expect((await statusOf(payment)).status).toBe('RECONCILED')
    const booked = await transaction(settled.transactionId)
    expect(booked.reconciliationStatus).toBe('RECONCILED')
    expect(booked.attachedTransactables).toHaveLength(3)
  })

  it('leaves what does not match visible: another amount, an unknown EndToEndId, a booking of no payment stay NOT_RECONCILED', async () => {
    const { payments } = await sentInOneFile(t, t.owner, files, org.supplierAccountId, [50_00])
    const payment = payments[0]!
    const stranger = { ...payment, id: '0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee' }
    const incoming: NotificationEntry = { amount: 9_99, creditDebit: 'CRDT', bookingDate: today, valueDate: today, accountServicerReference: `IN-${Date.now()}`, transactions: [{ remittance: 'Invoice 7' }] }
    const response = await upload(await camt054([booking(payment, { amount: 49_00 }), booking(stranger), incoming]))
    expectStatus(response, 201)
    const bookings = response.json().bookings
    expect(bookings.map((entry: { outcome: string }) => entry.outcome)).toEqual(['UNMATCHED', 'UNMATCHED', 'UNMATCHED'])
    expect(bookings[0].note).toContain('4900')
    expect((await statusOf(payment)).status).toBe('SENT')
    for (const entry of bookings) expect((await transaction(entry.transactionId)).reconciliationStatus).toBe('NOT_RECONCILED')
  })

  it('refuses a notification of an account that is not on the connection (400), booking nothing', async () => {
    const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR', as: t.owner })).json().items
    const sandboxAccount = accounts.find((account: { id: string }) => account.id !== files.accountId)
    const iban = sandboxAccount.identifiers.find((identifier: { type: string }) => identifier.type === 'IBAN').number
    const entry: NotificationEntry = { amount: 1_00, creditDebit: 'CRDT', bookingDate: today, valueDate: today, accountServicerReference: `OTHER-${Date.now()}`, transactions: [] }
    const response = await upload(await camt054([entry], iban))
    expectStatus(response, 400)
    expect(response.json().details[0].code).toBe('account_not_on_connection')
  })
})
