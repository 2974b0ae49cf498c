import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError } from '../conventions/expectations.js'
import {
  addDays,
  advanceClock,
  balance,
  bankToday,
  bookingsOf,
  createTransfer,
  endToEndIdOf,
  getPayment,
  MISSING_ID,
  setup,
  transferBody,
  type Setup,
} from '../payments/lifecycle-helpers.js'
import { approveAndSubmit, getPending, listPending, PENDING_TRANSACTIONS, pendingEvents } from './pending-transactions-helpers.js'

/**
 * Issue 13, pending transactions from the sandbox bank, over HTTP without the payment worker (each step is run
 * by the test): a credit transfer the bank holds shows its debit pending until the booking ends it, and a
 * transfer the bank fails withdraws it.
 */
let t: TestApp
let org: Setup
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  org = await setup(t)
})
afterAll(() => t.close())

describe('a credit transfer the bank accepts', () => {
  it('shows its debit pending from acceptance, then BOOKED naming the booked transaction once executed', async () => {
    const source = org.eurAccountIds[0]!
    const today = await bankToday(t, org.as)
    const payment = await createTransfer(t, org.as, transferBody(source, org.supplierAccountId, { date: today, amount: { currency: 'EUR', value: 123_45 } }))
    await approveAndSubmit(t, org.as, payment)
    expect((await getPayment(t, org.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('ACCEPTED')

    const listed = await listPending(t, org.as, `?accountId=${source}`)
    expect(listed.items).toHaveLength(1)
    const pending = listed.items[0]!
    expect(pending).toMatchObject({
      organizationId: org.as.organizationId,
      accountId: source,
      amount: { currency: 'EUR', value: -123_45, stringValue: '-123.45' },
      date: today,
      valueDate: today,
      references: { endToEndId: endToEndIdOf(payment.id) },
      bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' },
      returned: false,
      status: 'PENDING',
      version: 1,
      etag: 'version:1',
    })
    expect(pending.bookedTransactionId).toBeUndefined()
    expect(await getPending(t, org.as, pending.id)).toEqual(pending)
    // An id in upper case names the same account (RFC 9562), as on every other list.
    expect((await listPending(t, org.as, `?accountId=${source.toUpperCase()}`)).items).toEqual([pending])
    // Nothing is booked yet.
    expect(await bookingsOf(t, org.as, source, payment.id)).toEqual([])

    const step = await advanceClock(t, org.as, { days: 0 })
    expect(step.statusChanges.map((change) => change.status)).toEqual(['EXECUTED'])
    const [booking] = await bookingsOf(t, org.as, source, payment.id)
    expect(booking).toBeDefined()
    const ended = await getPending(t, org.as, pending.id)
    expect(ended).toMatchObject({ status: 'BOOKED', bookedTransactionId: booking!.id, version: 2, etag: 'version:2', amount: { value: -123_45 } })
    expect(booking!.references.entryReference).toBe(pending.references.entryReference)

    // The default list shows what is still pending; the ended one is listed under its status.
    expect((await listPending(t, org.as, `?accountId=${source}`)).items).toEqual([])
    expect((await listPending(t, org.as, `?accountId=${source}&status=BOOKED`)).items.map((item) => item.id)).toEqual([pending.id])

    const events = await pendingEvents(t, org.as, pending.id)
    expect(events.map((event) => [event.id, event.type, event.name, event.originator, event.entityVersion])).toEqual([
      [1, 'CREATED', 'CREATED', 'BANK', 1],
      [2, 'UPDATED', 'BOOKED', 'BANK', 2],
    ])
  })
})

describe('a future-dated credit transfer', () => {
  it('is pending (dated its execution date) while the bank waits, and WITHDRAWN when it fails for funds on its date', async () => {
    const own = await setup(t, await t.newOrganization('Pending Funds GmbH'))
    const source = own.eurAccountIds[0]!
    const today = await bankToday(t, own.as)
    const date = addDays(today, 2)
    // Above what the account can pay, and not one of the scripted .04 amounts (rejected at once).
    let value = (await balance(t, own.as, source, 'AVAILABLE')) + 1
    if (value % 100 === 4) value += 1
    const payment = await createTransfer(t, own.as, transferBody(source, own.supplierAccountId, { date, amount: { currency: 'EUR', value } }))
    await approveAndSubmit(t, own.as, payment)
    expect((await getPayment(t, own.as, 'CREDIT_TRANSFER', payment.id)).status).toBe('PENDING_AT_BANK')

    const [pending] = (await listPending(t, own.as)).items
    expect(pending).toMatchObject({ accountId: source, date, amount: { value: -value }, references: { endToEndId: endToEndIdOf(payment.id) }, status: 'PENDING' })

    const step = await advanceClock(t, own.as, { days: 2 })
    expect(step.statusChanges.map((change) => change.status)).toEqual(['FAILED'])
    expect(await getPending(t, own.as, pending!.id)).toMatchObject({ status: 'WITHDRAWN', version: 2 })
    expect((await getPending(t, own.as, pending!.id)).bookedTransactionId).toBeUndefined()
    expect((await listPending(t, own.as)).items).toEqual([])
    expect((await listPending(t, own.as, '?status=WITHDRAWN')).items.map((item) => item.id)).toEqual([pending!.id])
    expect(await bookingsOf(t, own.as, source, payment.id)).toEqual([])

    const events = await pendingEvents(t, own.as, pending!.id)
    expect(events.map((event) => [event.type, event.name, event.originator, event.message])).toEqual([
      ['CREATED', 'CREATED', 'BANK', undefined],
      ['UPDATED', 'WITHDRAWN', 'BANK', 'Insufficient funds'],
    ])
  })

  it('shows nothing for a transfer the bank refuses at once', async () => {
    const own = await setup(t, await t.newOrganization('Pending Refusals GmbH'))
    const source = own.eurAccountIds[0]!
    const refused = await createTransfer(t, own.as, transferBody(source, own.supplierAccountId, { amount: { currency: 'EUR', value: 12_04 } }))
    await approveAndSubmit(t, own.as, refused)
    expect((await getPayment(t, own.as, 'CREDIT_TRANSFER', refused.id)).status).toBe('FAILED')
    for (const status of ['PENDING', 'BOOKED', 'WITHDRAWN']) expect((await listPending(t, own.as, `?status=${status}`)).items).toEqual([])
  })
})

describe('tenancy and addressing', () => {
  it("answers 404 for another organization's pending transaction and its events, 400 for an id that is no UUID", async () => {
    const [mine] = (await listPending(t, org.as, '?status=BOOKED')).items
    expect(mine).toBeDefined()
    const other = await t.newOrganization('Pending Stranger AG')
    expectError(await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}/${mine!.id}`, as: other }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}/${mine!.id}/events`, as: other }), 404, 'not_found')
    expect((await listPending(t, other, '?status=BOOKED')).items).toEqual([])
    expectError(await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}/${MISSING_ID}`, as: org.as }), 404, 'not_found')
    expectError(await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}/not-a-uuid`, as: org.as }), 400, 'invalid_request')
  })

  it('is read with transactions:read: a read-only key lists and gets them; no key is a 401', async () => {
    const readOnly = await t.newKey('read-only')
    const [mine] = (await listPending(t, readOnly, '?status=BOOKED')).items
    expect(mine).toBeDefined()
    expect((await getPending(t, readOnly, mine!.id)).id).toBe(mine!.id)
    expectError(await t.request({ method: 'GET', url: PENDING_TRANSACTIONS, as: null }), 401, 'unauthorized')
  })
})
