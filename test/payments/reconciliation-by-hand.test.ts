import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Transaction } from '../../src/financial-data/transactions/transaction.schemas.js'
import type { Credentials } from '../../src/iam/index.js'
import { applyBankReport } from '../../src/payments/processing/bank-report-listener.js'
import { IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createRole, expectError, member } from '../iam/iam-helpers.js'
import { listAll } from './payments-helpers.js'
import {
  addDays,
  approveAsOwner,
  bankToday,
  bookingsOf,
  createDirectDebit,
  createMandate,
  createTransfer,
  directDebitBody,
  eventsOf,
  expectStatus,
  getPayment,
  MISSING_ID,
  settled,
  setup,
  transferBody,
  type EventJson,
  type Kind,
  type PaymentJson,
  type Setup,
  type TransactionJson,
} from './lifecycle-helpers.js'

/**
 * Issue 12, reconciliation by hand: POST /financial-data/v2/transactions/{id}:attach and :detach, over HTTP with
 * the payment worker and the sandbox bank running. Bookings that several payments settle are made the way a real
 * bank's arrive, by importing a camt.053 statement. `idle` runs no payment worker, so an approved payment stays
 * APPROVED there.
 */
let t: TestApp
let idle: TestApp
let org: Setup
let operating: string
let payroll: string
beforeAll(async () => {
  ;[t, idle] = await Promise.all([startTestApp(), startTestApp({ paymentWorkerIntervalMilliseconds: false, webhooks: { startWorker: false } })])
  org = await setup(t)
  ;[operating, payroll] = org.eurAccountIds as [string, string]
})
afterAll(async () => {
  await Promise.all([t?.close(), idle?.close()])
})

const TRANSACTIONS = '/financial-data/v2/transactions'
/** Statement bookings are dated well before the sandbox bank's own history. */
const STATEMENT_DAY = '2025-01-15'

function attach(transactionId: string, kind: Kind, paymentId: string, options: { as?: Credentials; headers?: Record<string, string>; app?: TestApp } = {}) {
  const { app = t, ...rest } = options
  return app.request({ method: 'POST', url: `${TRANSACTIONS}/${transactionId}:attach`, body: { type: kind, id: paymentId }, ...rest })
}

function detach(transactionId: string, kind: Kind, paymentId: string, options: { as?: Credentials; headers?: Record<string, string> } = {}) {
  return t.request({ method: 'POST', url: `${TRANSACTIONS}/${transactionId}:detach`, body: { type: kind, id: paymentId }, ...options })
}

async function transactionOf(id: string): Promise<TransactionJson & { version: number }> {
  const response = await t.request({ method: 'GET', url: `${TRANSACTIONS}/${id}` })
  expectStatus(response, 200)
  return response.json()
}

function transactionEvents(id: string): Promise<EventJson[]> {
  return listAll<EventJson>(t, `${TRANSACTIONS}/${id}/events`)
}

async function ibanOf(accountId: string): Promise<string> {
  const response = await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${accountId}` })
  return response.json<{ identifiers: Array<{ type: string; number: string }> }>().identifiers.find((identifier) => identifier.type === 'IBAN')!.number
}

let statements = 0
/** Books one entry of `amount` (signed minor units, EUR) on the account, as its bank's camt.053.001.08 would: the transaction. */
async function bookByStatement(accountId: string, amount: number): Promise<TransactionJson> {
  const id = `BY-HAND-${++statements}`
  const decimal = (minor: number) => `${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`
  const money = (minor: number) => `<Amt Ccy="EUR">${decimal(minor)}</Amt><CdtDbtInd>${minor < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd>`
  const balance = (code: string, minor: number) => `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp>${money(minor)}<Dt><Dt>${STATEMENT_DAY}</Dt></Dt></Bal>`
  const opening = 1_000_000_00
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>` +
    `<GrpHdr><MsgId>${id}</MsgId><CreDtTm>${STATEMENT_DAY}T20:00:00Z</CreDtTm></GrpHdr><Stmt><Id>${id}</Id>` +
    `<Acct><Id><IBAN>${await ibanOf(accountId)}</IBAN></Id><Ccy>EUR</Ccy></Acct>${balance('OPBD', opening)}${balance('CLBD', opening + amount)}` +
    `<Ntry>${money(amount)}<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${STATEMENT_DAY}</Dt></BookgDt><ValDt><Dt>${STATEMENT_DAY}</Dt></ValDt>` +
    `<AcctSvcrRef>${id}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd></Ntry>` +
    `</Stmt></BkToCstmrStmt></Document>`
  expectStatus(await t.request({ method: 'POST', url: '/financial-data/v2/statements', body: xml, headers: { 'content-type': 'application/xml' } }), 201)
  const booked = await listAll<TransactionJson>(t, `${TRANSACTIONS}?accountId=${accountId}&date=${STATEMENT_DAY}`)
  return booked.find((transaction) => transaction.references.entryReference === id)!
}

/** A credit transfer the sandbox bank executes and reconciles to its booking. */
async function reconciledTransfer(value: number, destination = org.supplierAccountId): Promise<{ payment: PaymentJson; booking: TransactionJson }> {
  const payment = await createTransfer(t, org.as, transferBody(operating, destination, { amount: { currency: 'EUR', value } }))
  await approveAsOwner(t, org.as, 'CREDIT_TRANSFER', payment)
  const done = await settled(t, org.as, 'CREDIT_TRANSFER', payment.id)
  expect(done.status).toBe('RECONCILED')
  const [booking] = await bookingsOf(t, org.as, operating, payment.id)
  return { payment: done, booking: booking! }
}

/** A credit transfer dated ahead of the sandbox bank's clock: it waits PENDING_AT_BANK (the clock is never advanced here). */
async function pendingTransfer(value: number): Promise<PaymentJson> {
  const date = addDays(await bankToday(t, org.as), 5)
  const payment = await createTransfer(t, org.as, transferBody(operating, org.supplierAccountId, { amount: { currency: 'EUR', value }, date }))
  await approveAsOwner(t, org.as, 'CREDIT_TRANSFER', payment)
  return settled(t, org.as, 'CREDIT_TRANSFER', payment.id, ['PENDING_AT_BANK'])
}

async function eventCounts(transactionId: string, kind: Kind, paymentId: string): Promise<[number, number]> {
  return [(await transactionEvents(transactionId)).length, (await eventsOf(t, org.as, kind, paymentId)).length]
}

describe('detaching a reconciled payment and attaching it back', () => {
  it('detaches: the payment is EXECUTED again, the transaction NOT_RECONCILED, each with its event by the person', async () => {
    const { payment, booking } = await reconciledTransfer(123_45)
    const response = await detach(booking.id, 'CREDIT_TRANSFER', payment.id)
    expectStatus(response, 200)
    expect(response.json()).toMatchObject({ id: booking.id, reconciliationStatus: 'NOT_RECONCILED', attachedTransactables: [] })
    expect(await transactionOf(booking.id)).toMatchObject({ reconciliationStatus: 'NOT_RECONCILED', attachedTransactables: [] })

    const detached = await getPayment(t, org.as, 'CREDIT_TRANSFER', payment.id)
    expect(detached).toMatchObject({ status: 'EXECUTED', attachedTransactions: [], version: payment.version + 1 })
    expect((await eventsOf(t, org.as, 'CREDIT_TRANSFER', payment.id)).at(-1)).toMatchObject({
      type: 'UPDATED',
      name: 'EXECUTED',
      originator: t.owner.userId,
      message: `Detached by hand from transaction ${booking.id}: executed, no longer reconciled`,
      entityVersion: detached.version,
    })
    expect((await transactionEvents(booking.id)).map((event) => [event.name, event.originator, event.message])).toEqual([
      ['BOOKED', 'BANK', undefined],
      ['RECONCILED', 'BANK', `Reconciled to CREDIT_TRANSFER ${payment.id}`],
      ['DETACHED', t.owner.userId, `Detached by hand from CREDIT_TRANSFER ${payment.id}`],
    ])

    const back = await attach(booking.id, 'CREDIT_TRANSFER', payment.id)
    expectStatus(back, 200)
    expect(back.json()).toMatchObject({ reconciliationStatus: 'RECONCILED', attachedTransactables: [{ type: 'CREDIT_TRANSFER', id: payment.id }] })
    const reattached = await getPayment(t, org.as, 'CREDIT_TRANSFER', payment.id)
    expect(reattached).toMatchObject({ status: 'RECONCILED', attachedTransactions: [{ type: 'TRANSACTION', id: booking.id }] })
    expect((await eventsOf(t, org.as, 'CREDIT_TRANSFER', payment.id)).slice(-2).map((event) => [event.name, event.originator, event.message])).toEqual([
      ['EXECUTED', t.owner.userId, `Detached by hand from transaction ${booking.id}: executed, no longer reconciled`],
      ['RECONCILED', t.owner.userId, `Reconciled by hand to transaction ${booking.id}`],
    ])
    expect((await transactionEvents(booking.id)).at(-1)).toMatchObject({
      name: 'RECONCILED',
      originator: t.owner.userId,
      message: `Attached by hand to CREDIT_TRANSFER ${payment.id}`,
    })
  })

  it('re-attaches an attached pair as a no-op: 200, the same version, no new events', async () => {
    const { payment, booking } = await reconciledTransfer(12_00)
    const before = await transactionOf(booking.id)
    const counts = await eventCounts(booking.id, 'CREDIT_TRANSFER', payment.id)
    const response = await attach(booking.id, 'CREDIT_TRANSFER', payment.id)
    expectStatus(response, 200)
    expect(response.json()).toMatchObject({ version: before.version, reconciliationStatus: 'RECONCILED' })
    expect(await eventCounts(booking.id, 'CREDIT_TRANSFER', payment.id)).toEqual(counts)
    expect((await getPayment(t, org.as, 'CREDIT_TRANSFER', payment.id)).version).toBe(payment.version)
  })

  it('answers a detach retried with its Idempotency-Key from the stored response, changing nothing again', async () => {
    const { payment, booking } = await reconciledTransfer(13_00)
    const headers = { 'idempotency-key': `detach-${payment.id}` }
    const first = await detach(booking.id, 'CREDIT_TRANSFER', payment.id, { headers })
    expectStatus(first, 200)
    const counts = await eventCounts(booking.id, 'CREDIT_TRANSFER', payment.id)
    const retried = await detach(booking.id, 'CREDIT_TRANSFER', payment.id, { headers })
    expectStatus(retried, 200)
    expect(retried.headers['idempotent-replayed']).toBe('true')
    expect(retried.body).toBe(first.body)
    expect(await eventCounts(booking.id, 'CREDIT_TRANSFER', payment.id)).toEqual(counts)
    // Without the key the same detach is a new request: the payment is no longer attached.
    expectError(await detach(booking.id, 'CREDIT_TRANSFER', payment.id), 409, 'conflict')
  })

  it('does the same for a direct debit, whose booking is money in', async () => {
    const mandate = await createMandate(t, org.as, org.supplierAccountId, 'MANDATE-BY-HAND-1')
    const debit = await createDirectDebit(t, org.as, directDebitBody(org.supplierAccountId, operating, { mandateId: mandate.id }))
    await approveAsOwner(t, org.as, 'DIRECT_DEBIT', debit)
    expect((await settled(t, org.as, 'DIRECT_DEBIT', debit.id)).status).toBe('RECONCILED')
    const [booking] = await bookingsOf(t, org.as, operating, debit.id)
    expectStatus(await detach(booking!.id, 'DIRECT_DEBIT', debit.id), 200)
    expect((await getPayment(t, org.as, 'DIRECT_DEBIT', debit.id)).status).toBe('EXECUTED')
    const back = await attach(booking!.id, 'DIRECT_DEBIT', debit.id)
    expectStatus(back, 200)
    expect(back.json()).toMatchObject({ reconciliationStatus: 'RECONCILED', attachedTransactables: [{ type: 'DIRECT_DEBIT', id: debit.id }] })
    expect((await getPayment(t, org.as, 'DIRECT_DEBIT', debit.id)).status).toBe('RECONCILED')
  })
})

describe('one booking that settles two payments', () => {
  it('is PARTIALLY_RECONCILED after the first, RECONCILED after the second; each payment walks from PENDING_AT_BANK', async () => {
    const [first, second] = [await pendingTransfer(100_00), await pendingTransfer(50_00)]
    const batch = await bookByStatement(operating, -150_00)
    expect(batch.reconciliationStatus).toBe('NOT_RECONCILED')

    const partly = await attach(batch.id, 'CREDIT_TRANSFER', first.id)
    expectStatus(partly, 200)
    expect(partly.json()).toMatchObject({ reconciliationStatus: 'PARTIALLY_RECONCILED', attachedTransactables: [{ type: 'CREDIT_TRANSFER', id: first.id }] })
    expect((await transactionEvents(batch.id)).at(-1)).toMatchObject({ name: 'PARTIALLY_RECONCILED', originator: t.owner.userId })
    expect((await getPayment(t, org.as, 'CREDIT_TRANSFER', first.id)).attachedTransactions).toEqual([{ type: 'TRANSACTION', id: batch.id }])
    expect((await eventsOf(t, org.as, 'CREDIT_TRANSFER', first.id)).slice(-4).map((event) => [event.name, event.originator])).toEqual([
      ['PENDING_AT_BANK', 'BANK'],
      ['ACCEPTED_BY_BANK', t.owner.userId],
      ['EXECUTED', t.owner.userId],
      ['RECONCILED', t.owner.userId],
    ])

    const whole = await attach(batch.id, 'CREDIT_TRANSFER', second.id)
    expectStatus(whole, 200)
    expect(whole.json()).toMatchObject({
      reconciliationStatus: 'RECONCILED',
      attachedTransactables: [
        { type: 'CREDIT_TRANSFER', id: first.id },
        { type: 'CREDIT_TRANSFER', id: second.id },
      ],
    })
    expect((await getPayment(t, org.as, 'CREDIT_TRANSFER', second.id)).status).toBe('RECONCILED')

    // A third payment would make the attached payments more than the booking: 422, and nothing changes.
    const third = await pendingTransfer(1_00)
    expectError(await attach(batch.id, 'CREDIT_TRANSFER', third.id), 422, 'payment_mismatch', 'amount.value')
    expect((await getPayment(t, org.as, 'CREDIT_TRANSFER', third.id)).status).toBe('PENDING_AT_BANK')

    // Detaching one of the two leaves the booking PARTIALLY_RECONCILED again.
    const detached = await detach(batch.id, 'CREDIT_TRANSFER', first.id)
    expect(detached.json()).toMatchObject({ reconciliationStatus: 'PARTIALLY_RECONCILED', attachedTransactables: [{ type: 'CREDIT_TRANSFER', id: second.id }] })
    expect((await transactionEvents(batch.id)).at(-1)).toMatchObject({ name: 'DETACHED', message: `Detached by hand from CREDIT_TRANSFER ${first.id}` })
  })

  it('ends RECONCILED the same way when a bank reports each payment of the batch executed by that one booking', async () => {
    const payments = [await pendingTransfer(70_00), await pendingTransfer(30_00)]
    const batch = await bookByStatement(operating, -100_00)
    const booked = (await t.request({ method: 'GET', url: `${TRANSACTIONS}/${batch.id}` })).json<Transaction>()
    const statuses: string[] = []
    for (const payment of payments) {
      const applied = await t.db.database.transaction((trx) =>
        applyBankReport(trx, {
          connector: 'bank files',
          instructionId: payment.connectionInstructionId!,
          paymentId: payment.id,
          paymentType: 'CREDIT_TRANSFER',
          organizationId: t.owner.organizationId,
          accountId: operating,
          status: 'EXECUTED',
          bankDate: STATEMENT_DAY,
          endToEndId: payment.id.replaceAll('-', ''),
          transaction: booked,
        }),
      )
      expect(applied).toEqual({ from: 'PENDING_AT_BANK', to: 'RECONCILED' })
      statuses.push((await transactionOf(batch.id)).reconciliationStatus)
    }
    expect(statuses).toEqual(['PARTIALLY_RECONCILED', 'RECONCILED'])
    expect((await transactionEvents(batch.id)).map((event) => [event.name, event.originator])).toEqual([
      ['BOOKED', 'BANK'],
      ['PARTIALLY_RECONCILED', 'BANK'],
      ['RECONCILED', 'BANK'],
    ])
  })
})

describe('a payment that does not match the booking: 422 payment_mismatch naming the field', () => {
  it('refuses a booking on another account, money in for a credit transfer, money out for a direct debit', async () => {
    const payment = await pendingTransfer(20_00)
    expectError(await attach((await bookByStatement(payroll, -20_00)).id, 'CREDIT_TRANSFER', payment.id), 422, 'payment_mismatch', 'source.id')
    expectError(await attach((await bookByStatement(operating, 20_00)).id, 'CREDIT_TRANSFER', payment.id), 422, 'payment_mismatch', 'type')

    const mandate = await createMandate(t, org.as, org.supplierAccountId, 'MANDATE-BY-HAND-2')
    const date = addDays(await bankToday(t, org.as), 5)
    const amount = { currency: 'EUR', value: 20_00 }
    const debit = await createDirectDebit(t, org.as, directDebitBody(org.supplierAccountId, operating, { mandateId: mandate.id, amount, date }))
    await approveAsOwner(t, org.as, 'DIRECT_DEBIT', debit)
    await settled(t, org.as, 'DIRECT_DEBIT', debit.id, ['PENDING_AT_BANK'])
    expectError(await attach((await bookByStatement(operating, -20_00)).id, 'DIRECT_DEBIT', debit.id), 422, 'payment_mismatch', 'type')
    expectError(await attach((await bookByStatement(payroll, 20_00)).id, 'DIRECT_DEBIT', debit.id), 422, 'payment_mismatch', 'destination.id')
    expect((await getPayment(t, org.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('PENDING_AT_BANK')
  })

  it('refuses a payment larger than the booking', async () => {
    const payment = await pendingTransfer(20_01)
    expectError(await attach((await bookByStatement(operating, -20_00)).id, 'CREDIT_TRANSFER', payment.id), 422, 'payment_mismatch', 'amount.value')
  })
})

describe('a payment the bank does not have, or whose status is final: 409 saying why', () => {
  async function expectConflict(app: TestApp, kind: Kind, paymentId: string, because: string): Promise<void> {
    const unmatched = await app.request({ method: 'GET', url: `${TRANSACTIONS}?reconciliationStatus=NOT_RECONCILED&limit=1` })
    const transaction = unmatched.json<{ items: TransactionJson[] }>().items[0]!
    const body = expectError(await attach(transaction.id, kind, paymentId, { app }), 409, 'conflict')
    expect(body.message).toContain(because)
  }

  it('refuses CREATED, REJECTED and CANCELLED payments', async () => {
    const created = await createTransfer(t, org.as, transferBody(operating, org.supplierAccountId))
    await expectConflict(t, 'CREDIT_TRANSFER', created.id, 'The payment is CREATED: it was never sent to the bank')
    const rejected = await createTransfer(t, org.as, transferBody(operating, org.supplierAccountId))
    expectStatus(await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${rejected.id}:reject`, body: {} }), 202)
    await expectConflict(t, 'CREDIT_TRANSFER', rejected.id, 'The payment is REJECTED, which is final')
    const cancelled = await createTransfer(t, org.as, transferBody(operating, org.supplierAccountId))
    expectStatus(await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${cancelled.id}:cancel`, body: {} }), 202)
    await expectConflict(t, 'CREDIT_TRANSFER', cancelled.id, 'The payment is CANCELLED, which is final')
  })

  it('refuses an APPROVED payment (no worker sends it) and one waiting in PENDING_SUBMISSION for a bank connection', async () => {
    const idleOrg = await setup(idle)
    const approved = await createTransfer(idle, idle.owner, transferBody(idleOrg.eurAccountIds[0]!, idleOrg.supplierAccountId))
    await approveAsOwner(idle, idle.owner, 'CREDIT_TRANSFER', approved)
    await expectConflict(idle, 'CREDIT_TRANSFER', approved.id, 'The payment is APPROVED: it was never sent to the bank')

    const account = await t.request({
      method: 'POST',
      url: '/financial-data/v2/accounts',
      body: { name: 'Geschäftskonto', market: 'NL', currency: 'EUR', bank: { name: 'ABN AMRO', bic: 'ABNANL2A' }, identifiers: [{ market: 'NL', type: 'IBAN', number: IBANS.nl }] },
    })
    expectStatus(account, 201)
    const waiting = await createTransfer(t, org.as, transferBody(account.json<{ id: string }>().id, org.supplierAccountId))
    await approveAsOwner(t, org.as, 'CREDIT_TRANSFER', waiting)
    await settled(t, org.as, 'CREDIT_TRANSFER', waiting.id, ['PENDING_SUBMISSION'])
    await expectConflict(t, 'CREDIT_TRANSFER', waiting.id, 'The payment is PENDING_SUBMISSION: it was never sent to the bank')
  })

  it('refuses a FAILED payment and a RETURNED one, which is not detached either', async () => {
    const available = (await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${payroll}/balances?type=AVAILABLE&mostRecent=true` })).json<{
      items: Array<{ amount: { value: number } }>
    }>().items[0]!.amount.value
    const failing = await createTransfer(t, org.as, transferBody(payroll, org.supplierAccountId, { amount: { currency: 'EUR', value: available + 1 } }))
    await approveAsOwner(t, org.as, 'CREDIT_TRANSFER', failing)
    expect((await settled(t, org.as, 'CREDIT_TRANSFER', failing.id)).status).toBe('FAILED')
    await expectConflict(t, 'CREDIT_TRANSFER', failing.id, 'The payment is FAILED, which is final')

    const returning = await createTransfer(t, org.as, transferBody(operating, org.returningAccountId, { amount: { currency: 'EUR', value: 11_00 } }))
    await approveAsOwner(t, org.as, 'CREDIT_TRANSFER', returning)
    const returned = await settled(t, org.as, 'CREDIT_TRANSFER', returning.id, ['RETURNED', 'FAILED'])
    expect(returned.status).toBe('RETURNED')
    await expectConflict(t, 'CREDIT_TRANSFER', returning.id, 'The payment is RETURNED')
    // Its return booking counts as reconciled: the returned amount is the payment's.
    const bookings = await bookingsOf(t, org.as, operating, returning.id)
    expect(bookings.map((booking) => [booking.returned, booking.reconciliationStatus])).toEqual(
      expect.arrayContaining([
        [false, 'RECONCILED'],
        [true, 'RECONCILED'],
      ]),
    )
    const body = expectError(await detach(bookings[0]!.id, 'CREDIT_TRANSFER', returning.id), 409, 'conflict')
    expect(body.message).toContain('The payment is RETURNED: only a RECONCILED payment is detached by hand')
  })

  it('refuses a payment RECONCILED to another transaction, and a detach from a transaction it is not attached to', async () => {
    const { payment, booking } = await reconciledTransfer(14_00)
    const other = await bookByStatement(operating, -14_00)
    const refused = expectError(await attach(other.id, 'CREDIT_TRANSFER', payment.id), 409, 'conflict')
    expect(refused.message).toBe(`The payment is already RECONCILED to transaction ${booking.id}: detach it there first`)
    const notAttached = expectError(await detach(other.id, 'CREDIT_TRANSFER', payment.id), 409, 'conflict')
    expect(notAttached.message).toBe(`The payment is not attached to transaction ${other.id}`)
    expect(await transactionOf(other.id)).toMatchObject({ reconciliationStatus: 'NOT_RECONCILED', attachedTransactables: [] })
  })
})

describe('who may attach and detach', () => {
  it('needs the payment kind’s update permission besides transactions:update: 403 without it, nothing changed', async () => {
    const { payment, booking } = await reconciledTransfer(15_00)
    const role = await createRole(t, 'transaction-keeper', ['transactions:read', 'transactions:update', 'credit_transfers:read'])
    const keeper = await member(t, role.id, 'Transaction keeper')
    const refused = expectError(await detach(booking.id, 'CREDIT_TRANSFER', payment.id, { as: keeper }), 403, 'forbidden')
    expect(refused.message).toContain('credit_transfers:update')
    expectError(await detach(booking.id, 'CREDIT_TRANSFER', payment.id, { as: await t.newKey('read-only') }), 403, 'forbidden')
    expect((await getPayment(t, org.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('RECONCILED')
  })

  it('finds neither another organization’s transaction nor its payment: 404', async () => {
    const { payment, booking } = await reconciledTransfer(16_00)
    const stranger = await t.newOrganization('Stranger GmbH')
    expectError(await detach(booking.id, 'CREDIT_TRANSFER', payment.id, { as: stranger }), 404, 'not_found')
    expectError(await detach(booking.id, 'CREDIT_TRANSFER', MISSING_ID), 404, 'not_found')
    expectError(await detach(MISSING_ID, 'CREDIT_TRANSFER', payment.id), 404, 'not_found')
  })

  it('answers 400 for a transaction id that is no UUID and a body without the payment’s type', async () => {
    expectError(await attach('not-a-uuid', 'CREDIT_TRANSFER', MISSING_ID), 400, 'invalid_request')
    expectError(await t.request({ method: 'POST', url: `${TRANSACTIONS}/${MISSING_ID}:attach`, body: { id: MISSING_ID } }), 400, 'invalid_request')
  })
})
