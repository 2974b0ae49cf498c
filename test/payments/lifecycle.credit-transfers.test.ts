import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SYSTEM_ORIGINATOR } from '../../src/events/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import {
  addDays,
  advanceClock,
  approveAsOwner,
  balance,
  bankToday,
  bookingsOf,
  createTransfer,
  eventsOf,
  getPayment,
  settled,
  setup,
  todayUtc,
  transferBody,
  unscriptedAmount,
  type Setup,
} from './lifecycle-helpers.js'

/**
 * A credit transfer's way through the lifecycle once approved, over HTTP with the payment worker
 * running (100 ms): the sandbox bank's answers — insufficient funds, a return, a future date — and
 * what each leaves on the payment, its events, the account's bookings and its balance.
 */
let t: TestApp
let org: Setup
beforeAll(async () => {
  t = await startTestApp()
  org = await setup(t)
})
afterAll(() => t.close())

const BANK = 'BANK'

describe('a credit transfer the funds cover', () => {
  it('is RECONCILED to its one booking, with every step an event in order, by whom it was made', async () => {
    const source = org.eurAccountIds[0]!
    const bookedBefore = await balance(t, org.as, source, 'BOOKED')
    const payment = await createTransfer(t, org.as, transferBody(source, org.supplierAccountId, { amount: { currency: 'EUR', value: 321_09 } }))
    await approveAsOwner(t, org.as, 'CREDIT_TRANSFER', payment)
    const done = await settled(t, org.as, 'CREDIT_TRANSFER', payment.id)
    expect(done.status).toBe('RECONCILED')
    expect(done.statusReason).toBeUndefined()

    const bookings = await bookingsOf(t, org.as, source, payment.id)
    expect(bookings).toHaveLength(1)
    expect(bookings[0]).toMatchObject({
      amount: { value: -321_09 },
      returned: false,
      reconciliationStatus: 'RECONCILED',
      attachedTransactables: [{ type: 'CREDIT_TRANSFER', id: payment.id }],
    })
    expect(done.attachedTransactions).toEqual([{ type: 'TRANSACTION', id: bookings[0]!.id }])
    expect(await balance(t, org.as, source, 'BOOKED')).toBe(bookedBefore - 321_09)

    const events = await eventsOf(t, org.as, 'CREDIT_TRANSFER', payment.id)
    expect(events.map((event) => [event.name, event.originator])).toEqual([
      ['CREATED', t.owner.userId],
      ['FULLY_APPROVED', t.owner.userId],
      ['PENDING_SUBMISSION', SYSTEM_ORIGINATOR],
      ['SENT_TO_BANK', SYSTEM_ORIGINATOR],
      ['ACCEPTED_BY_BANK', BANK],
      ['EXECUTED', BANK],
      ['RECONCILED', BANK],
    ])
    expect(events.map((event) => event.id)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(events.map((event) => event.entityVersion)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(events.map((event) => event.timestamp)).toEqual(events.map((event) => event.timestamp).sort())
    expect(done.version).toBe(7)
  })
})

describe('insufficient funds', () => {
  it('FAILS a transfer above the available balance with AM04: no booking, balance unchanged', async () => {
    const source = org.eurAccountIds[1]!
    const available = await balance(t, org.as, source, 'AVAILABLE')
    const bookedBefore = await balance(t, org.as, source, 'BOOKED')
    const payment = await createTransfer(t, org.as, transferBody(source, org.supplierAccountId, { amount: { currency: 'EUR', value: unscriptedAmount(available + 1) } }))
    await approveAsOwner(t, org.as, 'CREDIT_TRANSFER', payment)

    const failed = await settled(t, org.as, 'CREDIT_TRANSFER', payment.id)
    expect(failed).toMatchObject({ status: 'FAILED', statusReason: { code: 'AM04', message: 'Insufficient funds' }, attachedTransactions: [] })
    expect(failed.connectionInstructionId).toBeTruthy()
    // The bank's next steps leave a failed payment alone.
    await advanceClock(t, org.as, { days: 0 })
    expect((await getPayment(t, org.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('FAILED')

    expect(await bookingsOf(t, org.as, source, payment.id)).toEqual([])
    expect(await balance(t, org.as, source, 'BOOKED')).toBe(bookedBefore)
    expect(await balance(t, org.as, source, 'AVAILABLE')).toBe(available)
    const events = await eventsOf(t, org.as, 'CREDIT_TRANSFER', payment.id)
    expect(events.slice(2).map((event) => [event.name, event.originator])).toEqual([
      ['PENDING_SUBMISSION', SYSTEM_ORIGINATOR],
      ['SENT_TO_BANK', SYSTEM_ORIGINATOR],
      ['FAILED', BANK],
    ])
    expect(events.at(-1)!.message).toBe('Insufficient funds')
  })
})

describe('a return', () => {
  it('RETURNS a transfer to the magic IBAN with AC04 after EXECUTED: both bookings, net zero, events in order', async () => {
    const source = org.eurAccountIds[0]!
    const bookedBefore = await balance(t, org.as, source, 'BOOKED')
    const payment = await createTransfer(t, org.as, transferBody(source, org.returningAccountId, { amount: { currency: 'EUR', value: 77_70 } }))
    await approveAsOwner(t, org.as, 'CREDIT_TRANSFER', payment)

    const returned = await settled(t, org.as, 'CREDIT_TRANSFER', payment.id, ['RETURNED', 'FAILED', 'REJECTED'])
    expect(returned).toMatchObject({ status: 'RETURNED', statusReason: { code: 'AC04', message: 'Closed account number' } })

    const bookings = await bookingsOf(t, org.as, source, payment.id)
    const execution = bookings.find((booking) => !booking.returned)
    const reversal = bookings.find((booking) => booking.returned)
    expect(bookings).toHaveLength(2)
    expect(execution).toMatchObject({ amount: { value: -77_70 } })
    expect(reversal).toMatchObject({ amount: { value: 77_70 }, returnReason: { code: 'AC04' } })
    expect(returned.attachedTransactions.map((attached) => attached.id)).toEqual([execution!.id, reversal!.id])
    for (const booking of bookings) expect(booking.attachedTransactables).toEqual([{ type: 'CREDIT_TRANSFER', id: payment.id }])
    expect(await balance(t, org.as, source, 'BOOKED')).toBe(bookedBefore)

    const events = await eventsOf(t, org.as, 'CREDIT_TRANSFER', payment.id)
    expect(events.map((event) => event.name)).toEqual([
      'CREATED',
      'FULLY_APPROVED',
      'PENDING_SUBMISSION',
      'SENT_TO_BANK',
      'ACCEPTED_BY_BANK',
      'EXECUTED',
      'RECONCILED',
      'RETURNED',
    ])
    expect(events.at(-1)).toMatchObject({ originator: BANK, message: 'Closed account number' })
  })
})

describe('a future-dated transfer', () => {
  it('waits in PENDING_AT_BANK, reserving nothing, until the sandbox clock reaches its date; then it executes', async () => {
    // An organization of its own: its bank's clock is still at today.
    const own = await setup(t, await t.newOrganization('Future GmbH'))
    const source = own.eurAccountIds[0]!
    const today = await bankToday(t, own.as)
    expect(today).toBe(todayUtc())
    const date = addDays(today, 3)
    const bookedBefore = await balance(t, own.as, source, 'BOOKED')
    const availableBefore = await balance(t, own.as, source, 'AVAILABLE')

    const payment = await createTransfer(t, own.as, transferBody(source, own.supplierAccountId, { date, amount: { currency: 'EUR', value: 500_00 } }))
    await approveAsOwner(t, own.as, 'CREDIT_TRANSFER', payment)
    const waiting = await settled(t, own.as, 'CREDIT_TRANSFER', payment.id, ['PENDING_AT_BANK', ...['FAILED', 'RECONCILED']])
    expect(waiting.status).toBe('PENDING_AT_BANK')
    // Several worker passes later it still waits; nothing is booked or reserved.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect((await getPayment(t, own.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('PENDING_AT_BANK')
    expect(await balance(t, own.as, source, 'AVAILABLE')).toBe(availableBefore)

    const twoDays = await advanceClock(t, own.as, { days: 2 })
    expect(twoDays.statusChanges).toEqual([])
    expect((await getPayment(t, own.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('PENDING_AT_BANK')

    const step = await advanceClock(t, own.as, { days: 1 })
    expect(step.today).toBe(date)
    expect(step.statusChanges.map((change) => change.status)).toEqual(['ACCEPTED', 'EXECUTED'])
    const done = await getPayment(t, own.as, 'CREDIT_TRANSFER', payment.id)
    expect(done.status).toBe('RECONCILED')
    const bookings = await bookingsOf(t, own.as, source, payment.id)
    expect(bookings).toEqual([expect.objectContaining({ date, amount: expect.objectContaining({ value: -500_00 }) })])
    expect(await balance(t, own.as, source, 'BOOKED')).toBe(bookedBefore - 500_00)

    const events = await eventsOf(t, own.as, 'CREDIT_TRANSFER', payment.id)
    expect(events.map((event) => event.name)).toEqual([
      'CREATED',
      'FULLY_APPROVED',
      'PENDING_SUBMISSION',
      'SENT_TO_BANK',
      'PENDING_AT_BANK',
      'ACCEPTED_BY_BANK',
      'EXECUTED',
      'RECONCILED',
    ])
    expect(events.slice(4).map((event) => event.originator)).toEqual([BANK, BANK, BANK, BANK])
  })
})
