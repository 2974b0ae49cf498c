import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SYSTEM_ORIGINATOR } from '../../src/events/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { listAll } from './payments-helpers.js'
import {
  addDays,
  advanceClock,
  approveAsOwner,
  balance,
  bankToday,
  bookingsOf,
  createDirectDebit,
  createMandate,
  directDebitBody,
  eventsOf,
  expectStatus,
  getPayment,
  MANDATES,
  SETTLED,
  settled,
  setup,
  type EventJson,
  type Setup,
} from './lifecycle-helpers.js'

/**
 * The spec's first-payment flow for a direct debit, over HTTP only: counterparty → mandate →
 * direct debit → owner approval → the sandbox bank credits the collection → RECONCILED, and the
 * first collection makes the mandate ACTIVE. Then a returned collection, and a cancelled mandate.
 */
let t: TestApp
let org: Setup
beforeAll(async () => {
  t = await startTestApp()
  org = await setup(t)
})
afterAll(() => t.close())

async function mandateOf(id: string) {
  const response = await t.request({ method: 'GET', url: `${MANDATES}/${id}`, as: org.as })
  expectStatus(response, 200)
  return response.json<{ id: string; status: string; version: number }>()
}

describe('a first collection', () => {
  it('is credited on the destination account, RECONCILED, and makes its mandate ACTIVE', async () => {
    const destination = org.eurAccountIds[0]!
    const mandate = await createMandate(t, org.as, org.supplierAccountId, 'MANDATE-FIRST-1')
    expect(mandate.status).toBe('CREATED')
    const bookedBefore = await balance(t, org.as, destination, 'BOOKED')

    const debit = await createDirectDebit(t, org.as, directDebitBody(org.supplierAccountId, destination, { amount: { currency: 'EUR', value: 1_234_56 } }))
    expect(debit).toMatchObject({ status: 'CREATED', mandate: { id: mandate.id } })
    await approveAsOwner(t, org.as, 'DIRECT_DEBIT', debit)
    const done = await settled(t, org.as, 'DIRECT_DEBIT', debit.id)
    expect(done.status).toBe('RECONCILED')

    const bookings = await bookingsOf(t, org.as, destination, debit.id)
    expect(bookings).toHaveLength(1)
    expect(bookings[0]).toMatchObject({
      accountId: destination,
      amount: { value: 1_234_56 },
      reconciliationStatus: 'RECONCILED',
      attachedTransactables: [{ type: 'DIRECT_DEBIT', id: debit.id }],
    })
    expect(done.attachedTransactions).toEqual([{ type: 'TRANSACTION', id: bookings[0]!.id }])
    expect(await balance(t, org.as, destination, 'BOOKED')).toBe(bookedBefore + 1_234_56)

    expect((await mandateOf(mandate.id)).status).toBe('ACTIVE')
    const mandateEvents = await listAll<EventJson>(t, `${MANDATES}/${mandate.id}/events`, org.as)
    expect(mandateEvents.map((event) => [event.name, event.originator])).toEqual([
      ['CREATED', t.owner.userId],
      ['ACTIVATED', 'BANK'],
    ])

    const events = await eventsOf(t, org.as, 'DIRECT_DEBIT', debit.id)
    expect(events.map((event) => [event.name, event.originator])).toEqual([
      ['CREATED', t.owner.userId],
      ['FULLY_APPROVED', t.owner.userId],
      ['PENDING_SUBMISSION', SYSTEM_ORIGINATOR],
      ['SENT_TO_BANK', SYSTEM_ORIGINATOR],
      ['ACCEPTED_BY_BANK', 'BANK'],
      ['EXECUTED', 'BANK'],
      ['RECONCILED', 'BANK'],
    ])

    // A second collection under the now active mandate leaves it ACTIVE.
    const second = await createDirectDebit(t, org.as, directDebitBody(org.supplierAccountId, destination, { reference: 'Subscription December' }))
    await approveAsOwner(t, org.as, 'DIRECT_DEBIT', second)
    expect((await settled(t, org.as, 'DIRECT_DEBIT', second.id)).status).toBe('RECONCILED')
    expect(await mandateOf(mandate.id)).toMatchObject({ status: 'ACTIVE', version: 2 })
    expect(await balance(t, org.as, destination, 'BOOKED')).toBe(bookedBefore + 1_234_56 + 49_90)
  })
})

describe('a future-dated B2B collection', () => {
  it('waits PENDING_AT_BANK and is credited on its due date, booked as a B2B collection', async () => {
    const own = await setup(t, await t.newOrganization('B2B GmbH'))
    const destination = own.eurAccountIds[0]!
    const mandate = await createMandate(t, own.as, own.supplierAccountId, 'MANDATE-B2B-1', 'SDD_B2B')
    const due = addDays(await bankToday(t, own.as), 2)
    const bookedBefore = await balance(t, own.as, destination, 'BOOKED')
    const debit = await createDirectDebit(t, own.as, directDebitBody(own.supplierAccountId, destination, { scheme: 'SDD_B2B', date: due }))
    await approveAsOwner(t, own.as, 'DIRECT_DEBIT', debit)
    expect((await settled(t, own.as, 'DIRECT_DEBIT', debit.id, ['PENDING_AT_BANK', ...SETTLED])).status).toBe('PENDING_AT_BANK')

    expect((await advanceClock(t, own.as, { days: 1 })).statusChanges).toEqual([])
    expect(await balance(t, own.as, destination, 'BOOKED')).toBe(bookedBefore)
    expect((await advanceClock(t, own.as, { days: 1 })).statusChanges.map((change) => change.status)).toEqual(['ACCEPTED', 'EXECUTED'])
    expect((await getPayment(t, own.as, 'DIRECT_DEBIT', debit.id)).status).toBe('RECONCILED')
    const bookings = await bookingsOf(t, own.as, destination, debit.id)
    expect(bookings).toEqual([
      expect.objectContaining({ date: due, amount: expect.objectContaining({ value: 49_90 }), bankTransactionCode: expect.objectContaining({ family: 'IDDT', subfamily: 'BBDD' }) }),
    ])
    expect(await balance(t, own.as, destination, 'BOOKED')).toBe(bookedBefore + 49_90)
    const activated = await t.request({ method: 'GET', url: `${MANDATES}/${mandate.id}`, as: own.as })
    expect(activated.json()).toMatchObject({ status: 'ACTIVE' })
  })
})

describe('a returned collection', () => {
  it('is RETURNED with AC04 after EXECUTED: credit and reversal booked, net zero', async () => {
    const destination = org.eurAccountIds[1]!
    await createMandate(t, org.as, org.returningAccountId, 'MANDATE-RETURN-1')
    const bookedBefore = await balance(t, org.as, destination, 'BOOKED')
    const debit = await createDirectDebit(t, org.as, directDebitBody(org.returningAccountId, destination, { amount: { currency: 'EUR', value: 88_00 } }))
    await approveAsOwner(t, org.as, 'DIRECT_DEBIT', debit)

    const returned = await settled(t, org.as, 'DIRECT_DEBIT', debit.id, ['RETURNED', 'FAILED'])
    expect(returned).toMatchObject({ status: 'RETURNED', statusReason: { code: 'AC04' } })
    const bookings = await bookingsOf(t, org.as, destination, debit.id)
    expect(bookings.map((booking) => [booking.amount.value, booking.returned])).toEqual(
      expect.arrayContaining([
        [88_00, false],
        [-88_00, true],
      ]),
    )
    expect(bookings).toHaveLength(2)
    expect(returned.attachedTransactions).toHaveLength(2)
    expect(await balance(t, org.as, destination, 'BOOKED')).toBe(bookedBefore)
    expect((await eventsOf(t, org.as, 'DIRECT_DEBIT', debit.id)).slice(-3).map((event) => event.name)).toEqual(['EXECUTED', 'RECONCILED', 'RETURNED'])
  })
})

describe('a mandate cancelled before its collection is submitted', () => {
  it('is never collected: the direct debit FAILS with MD01 and nothing is booked', async () => {
    const destination = org.eurAccountIds[0]!
    const debtor = await t.request({
      method: 'POST',
      url: '/payments/v2/counterparties',
      body: { legalName: 'Cancelled Mandate KG', accounts: [{ market: 'NL', identifiers: [{ market: 'NL', type: 'IBAN', number: 'NL91ABNA0417164300' }] }] },
      as: org.as,
    })
    expectStatus(debtor, 201)
    const externalAccountId = debtor.json().accounts[0].id as string
    const mandate = await createMandate(t, org.as, externalAccountId, 'MANDATE-CANCEL-1')
    const debit = await createDirectDebit(t, org.as, directDebitBody(externalAccountId, destination))
    expectStatus(await t.request({ method: 'POST', url: `${MANDATES}/${mandate.id}:cancel`, as: org.as }), 202)
    const bookedBefore = await balance(t, org.as, destination, 'BOOKED')

    await approveAsOwner(t, org.as, 'DIRECT_DEBIT', debit)
    const failed = await settled(t, org.as, 'DIRECT_DEBIT', debit.id)
    expect(failed).toMatchObject({ status: 'FAILED', statusReason: { code: 'MD01' } })
    expect(await bookingsOf(t, org.as, destination, debit.id)).toEqual([])
    expect(await balance(t, org.as, destination, 'BOOKED')).toBe(bookedBefore)
    expect((await mandateOf(mandate.id)).status).toBe('CANCELLED')
  })
})
