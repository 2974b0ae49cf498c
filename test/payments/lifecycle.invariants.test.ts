import { afterAll, beforeAll, expect, it } from 'vitest'
import { SYSTEM_ORIGINATOR } from '../../src/events/index.js'
import { seededRandom } from '../../src/financial-data/sandbox/prng.js'
import { canTransition, EVENT_NAME_FOR_STATUS, PAYMENT_STATUSES, type PaymentStatus } from '../../src/payments/lifecycle/payment-status.js'
import { ledgerProblems } from '../financial-data/sandbox-helpers.js'
import { testBackend } from '../support/test-database.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { listAll } from './payments-helpers.js'
import {
  addDays,
  advanceClock,
  approveAsOwner,
  balance,
  bankToday,
  BASE,
  createMandate,
  CREDIT_TRANSFERS,
  DIRECT_DEBITS,
  directDebitBody,
  endToEndIdOf,
  eventsOf,
  expectStatus,
  SETTLED,
  setup,
  transactionsOf,
  transferBody,
  until,
  type Kind,
  type PaymentJson,
  type Setup,
  type TransactionJson,
} from './lifecycle-helpers.js'

/**
 * The money invariant after a seeded random run of a few hundred payments over HTTP — transfers
 * and collections, small and large, some the funds cannot cover, some to and from the IBAN that
 * returns, some future-dated, a few rejected — with the payment worker running and the sandbox
 * clock advanced now and then:
 * - for every account and every day, booked balance = opening + Σ booked transactions (the sandbox
 *   ledger check), and each account moved by exactly what its executed payments moved;
 * - every EXECUTED/RECONCILED/RETURNED payment has exactly one execution booking (a RETURNED one
 *   also its reversal), FAILED and REJECTED ones none;
 * - every payment's events are numbered 1…n, each a legal step of the lifecycle, by the user, KASSA
 *   or the BANK as expected.
 */
const PAYMENTS = 200
const ROUND = 25

let t: TestApp
let org: Setup
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: 20 })
  org = await setup(t, await t.newOrganization('Random payments GmbH'))
})
afterAll(() => t.close())

interface Planned {
  kind: Kind
  accountId: string
  body: Record<string, unknown>
  reject: boolean
}

const STATUS_BY_EVENT_NAME = new Map(Object.entries(EVENT_NAME_FOR_STATUS).map(([status, name]) => [name, status as PaymentStatus]))

/** Who records each step: the user who decides, Kassa submitting, the bank answering. */
function expectedOriginator(status: PaymentStatus, userId: string): string {
  if (status === 'CREATED' || status === 'APPROVED' || status === 'REJECTED') return userId
  if (status === 'PENDING_SUBMISSION' || status === 'SENT') return SYSTEM_ORIGINATOR
  return 'BANK'
}

/** `kind status` of each status some payment of the organization is still in, short of settled. */
async function unsettled(): Promise<string[]> {
  const open: string[] = []
  for (const kind of ['CREDIT_TRANSFER', 'DIRECT_DEBIT'] as const) {
    for (const status of PAYMENT_STATUSES.filter((candidate) => !SETTLED.includes(candidate))) {
      const response = await t.request({ method: 'GET', url: `${BASE[kind]}?status=${status}&limit=1`, as: org.as })
      expectStatus(response, 200)
      if (response.json<{ items: unknown[] }>().items.length > 0) open.push(`${kind} ${status}`)
    }
  }
  return open
}

it('keeps the books right and every payment booked exactly as its status says', async () => {
  const random = seededRandom(`payments-invariant:${testBackend()}`)
  const [operating, payroll] = org.eurAccountIds as [string, string]
  await createMandate(t, org.as, org.supplierAccountId, 'MANDATE-RANDOM-1')
  await createMandate(t, org.as, org.returningAccountId, 'MANDATE-RANDOM-2')
  const bookedBefore = new Map<string, number>()
  for (const accountId of org.eurAccountIds) bookedBefore.set(accountId, await balance(t, org.as, accountId, 'BOOKED'))

  const plan = (bankDay: string): Planned => {
    const kind: Kind = random.chance(0.2) ? 'DIRECT_DEBIT' : 'CREDIT_TRANSFER'
    const accountId = random.chance(0.6) ? operating : payroll
    const returning = random.chance(0.12)
    const size = random.next()
    const value = size < 0.04 ? 100_000_000_00 : size < 0.15 ? random.int(10_000_00, 60_000_00) : random.int(1_00, 2_000_00)
    const overrides = {
      amount: { currency: 'EUR', value },
      date: random.chance(0.25) ? addDays(bankDay, random.int(1, 4)) : bankDay,
      reference: `Random ${random.digits(6)}`,
    }
    const counterparty = returning ? org.returningAccountId : org.supplierAccountId
    const body = kind === 'CREDIT_TRANSFER' ? transferBody(accountId, counterparty, overrides) : directDebitBody(counterparty, accountId, overrides)
    return { kind, accountId, body, reject: random.chance(0.06) }
  }

  const created: Array<PaymentJson & { kind: Kind; accountId: string }> = []
  while (created.length < PAYMENTS) {
    const bankDay = await bankToday(t, org.as)
    const round = Array.from({ length: Math.min(ROUND, PAYMENTS - created.length) }, () => plan(bankDay))
    const payments = await Promise.all(
      round.map(async (planned) => {
        const response = await t.request({ method: 'POST', url: BASE[planned.kind], body: planned.body, as: org.as })
        expectStatus(response, 201)
        const payment = response.json<PaymentJson>()
        if (planned.reject) {
          expectStatus(await t.request({ method: 'POST', url: `${BASE[planned.kind]}/${payment.id}:reject`, body: {}, as: org.as }), 202)
        } else {
          await approveAsOwner(t, org.as, planned.kind, payment)
        }
        return { ...payment, kind: planned.kind, accountId: planned.accountId }
      }),
    )
    created.push(...payments)
    if (random.chance(0.4)) await advanceClock(t, org.as, { days: random.int(0, 2) })
  }
  // Everything still waiting for its date comes due; the worker does the rest.
  await advanceClock(t, org.as, { days: 5 })
  // Polled with one-item pages per unsettled status: the server (and its worker) share this process.
  await until(unsettled, (counts) => counts.length === 0, 'every payment settled', 60_000, 200)
  const final = [...(await listAll<PaymentJson>(t, CREDIT_TRANSFERS, org.as)), ...(await listAll<PaymentJson>(t, DIRECT_DEBITS, org.as))]
  expect(final).toHaveLength(PAYMENTS)

  // The ledger: every account (the SEK one too), every day, and today's AVAILABLE.
  expect(await ledgerProblems(t.db.database, org.as.organizationId)).toEqual([])

  const transactions = await transactionsOf(t, org.as)
  const byEndToEnd = new Map<string, TransactionJson[]>()
  for (const transaction of transactions) {
    const key = transaction.references.endToEndId
    if (key) byEndToEnd.set(key, [...(byEndToEnd.get(key) ?? []), transaction])
  }
  const kindOf = new Map(created.map((payment) => [payment.id, payment]))
  const moved = new Map<string, number>()
  const outcomes = new Map<string, number>()
  for (const payment of final) {
    const { kind, accountId } = kindOf.get(payment.id)!
    const outcome = `${kind}:${payment.status}${payment.statusReason ? `:${payment.statusReason.code}` : ''}`
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
    const bookings = byEndToEnd.get(endToEndIdOf(payment.id)) ?? []
    const executions = bookings.filter((booking) => !booking.returned)
    const reversals = bookings.filter((booking) => booking.returned)
    const signed = kind === 'CREDIT_TRANSFER' ? -payment.amount.value : payment.amount.value
    const context = `${outcome} ${payment.id}`
    if (payment.status === 'FAILED' || payment.status === 'REJECTED') {
      expect(bookings, context).toEqual([])
      expect(payment.attachedTransactions, context).toEqual([])
      continue
    }
    expect(executions, context).toHaveLength(1)
    expect(executions[0], context).toMatchObject({ accountId, amount: { value: signed }, attachedTransactables: [{ type: kind, id: payment.id }] })
    if (payment.status === 'RETURNED') {
      expect(reversals, context).toHaveLength(1)
      expect(reversals[0], context).toMatchObject({ accountId, amount: { value: -signed }, returnReason: { code: 'AC04' } })
      expect(payment.attachedTransactions.map((attached) => attached.id), context).toEqual([executions[0]!.id, reversals[0]!.id])
    } else {
      expect(payment.status, context).toBe('RECONCILED')
      expect(reversals, context).toEqual([])
      expect(payment.attachedTransactions.map((attached) => attached.id), context).toEqual([executions[0]!.id])
      moved.set(accountId, (moved.get(accountId) ?? 0) + signed)
    }
  }
  // Nothing else touched these accounts: each moved by exactly its executed, unreturned payments.
  for (const accountId of org.eurAccountIds) {
    expect(await balance(t, org.as, accountId, 'BOOKED'), accountId).toBe(bookedBefore.get(accountId)! + (moved.get(accountId) ?? 0))
  }
  // The run covered what it is meant to.
  expect([...outcomes.keys()]).toEqual(
    expect.arrayContaining([
      'CREDIT_TRANSFER:RECONCILED',
      'CREDIT_TRANSFER:FAILED:AM04',
      'CREDIT_TRANSFER:RETURNED:AC04',
      'CREDIT_TRANSFER:REJECTED:CUST',
      'DIRECT_DEBIT:RECONCILED',
      'DIRECT_DEBIT:RETURNED:AC04',
    ]),
  )

  // Events: 1…n, each a legal step from the one before, recorded by whom it should be.
  let waited = 0
  for (let start = 0; start < final.length; start += 10) {
    await Promise.all(
      final.slice(start, start + 10).map(async (payment) => {
        const { kind } = kindOf.get(payment.id)!
        const events = await eventsOf(t, org.as, kind, payment.id)
        const context = `${kind} ${payment.id}: ${events.map((event) => event.name).join(' → ')}`
        expect(events.map((event) => event.id), context).toEqual(events.map((_, index) => index + 1))
        const statuses = events.map((event) => STATUS_BY_EVENT_NAME.get(event.name))
        expect(statuses[0], context).toBe('CREATED')
        expect(statuses.at(-1), context).toBe(payment.status)
        for (let index = 1; index < statuses.length; index++) {
          expect(statuses[index], context).toBeDefined()
          expect(canTransition(statuses[index - 1]!, statuses[index]!), context).toBe(true)
        }
        events.forEach((event, index) => expect(event.originator, `${context} #${index + 1}`).toBe(expectedOriginator(statuses[index]!, org.as.userId)))
        if (statuses.includes('PENDING_AT_BANK')) waited += 1
      }),
    )
  }
  expect(waited).toBeGreaterThan(0)
}, 120_000)
