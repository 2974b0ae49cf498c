import { afterAll, beforeAll, expect, it } from 'vitest'
import { paymentStatusListener, RETURNING_IBAN, sandboxBankOf, setPaymentStatusListener, type PaymentStatusReport } from '../../src/financial-data/sandbox/index.js'
import { addDays } from '../../src/shared/calendar.js'
import { bankReference } from '../../src/financial-data/sandbox/instruction-entries.js'
import { seededRandom } from '../../src/financial-data/sandbox/prng.js'
import { formatMinorUnits } from '../../src/shared/money.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { bankToday, bookedNow, creditTransfer, ledgerProblems, recordingListener, sandboxAccounts } from './sandbox-helpers.js'

let t: TestApp
const listener = recordingListener()
// The process-wide listener this file replaces, put back afterwards for the files that run after it in this worker.
const previousListener = paymentStatusListener()
beforeAll(async () => {
  // No payment worker: its processDue would move these banks' clocks in the background.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  setPaymentStatusListener(listener)
})
afterAll(async () => {
  setPaymentStatusListener(previousListener)
  await t.close()
})

/**
 * A seeded random run of what integrators and the payments domain do to the sandbox bank — HTTP
 * injections (in and out, backdated too), HTTP clock advances, and payment instructions (due, future,
 * too large for the funds, to the returning IBAN, direct debits) — checking the balance invariant for
 * every account and every day after each operation.
 */
it('keeps booked = opening + Σ booked entries, every account and every day, through random activity', async () => {
  const database = t.db.database
  const organizationId = t.owner.organizationId
  const bank = sandboxBankOf(database)
  const accounts = await sandboxAccounts(database, organizationId)
  const random = seededRandom(`sandbox-invariant:${process.env.KASSA_TEST_BACKEND}`)
  const seen = new Set<string>()
  const submitted: string[] = []

  for (let operation = 0; operation < 80; operation++) {
    const today = await bankToday(database, organizationId)
    const account = random.pick(accounts)
    const kind = random.pick(['inject', 'inject', 'advance', 'submit', 'submit', 'submit'] as const)
    if (kind === 'inject') {
      const value = (random.chance(0.5) ? 1 : -1) * random.int(1, 2_000_000)
      const date = random.chance(0.3) ? addDays(today, -random.int(0, 30)) : today
      const response = await t.request({
        method: 'POST',
        url: '/v1/sandbox/transactions',
        body: { accountId: account.id, amount: { currency: account.currency, stringValue: formatMinorUnits(value, 2) }, date, description: `Random ${operation}` },
      })
      expect(response.statusCode, response.body).toBe(201)
      seen.add('inject')
    } else if (kind === 'advance') {
      const response = await t.request({ method: 'POST', url: '/v1/sandbox/clock:advance', body: { days: random.int(0, 3) } })
      expect(response.statusCode, response.body).toBe(200)
      seen.add('advance')
    } else {
      const disposable = await bookedNow(database, account.id)
      const amount = random.chance(0.2) ? disposable + random.int(1, 1_000_000) : random.int(1, Math.max(1, Math.floor(disposable / 6)))
      const instruction = creditTransfer(organizationId, account.id, {
        paymentType: random.chance(0.2) ? 'DIRECT_DEBIT' : 'CREDIT_TRANSFER',
        amount,
        currency: account.currency,
        executionDate: addDays(today, random.pick([-1, 0, 0, 0, 1, 2, 4])),
        counterparty: random.chance(0.2) ? { name: 'Returns AG', iban: RETURNING_IBAN } : { name: 'Supplier', iban: 'DE89370400440532013000' },
      })
      const ack = await database.transaction((trx) => bank.submit(trx, instruction))
      submitted.push(ack.paymentId)
      seen.add(`submit:${ack.status}${ack.reason ? `:${ack.reason.code}` : ''}`)
    }
    expect(await ledgerProblems(database, organizationId), `after operation ${operation} (${kind})`).toEqual([])
  }
  // Let everything still waiting come due.
  expect((await t.request({ method: 'POST', url: '/v1/sandbox/clock:advance', body: { days: 5 } })).statusCode).toBe(200)
  expect(await ledgerProblems(database, organizationId)).toEqual([])

  for (const report of listener.reports) seen.add(`report:${report.status}${report.reason ? `:${report.reason.code}` : ''}`)
  expect([...seen]).toEqual(
    expect.arrayContaining(['inject', 'advance', 'submit:ACCEPTED', 'submit:PENDING_AT_BANK', 'submit:FAILED:AM04', 'report:EXECUTED', 'report:RETURNED:AC04']),
  )

  // Every instruction ended where its reports say, with exactly the bookings its status implies.
  const instructions = await database.db.selectFrom('sandbox_instructions').selectAll().where('organization_id', '=', organizationId).execute()
  expect(instructions.map((row) => row.payment_id).sort()).toEqual([...submitted].sort())
  const lastReport = new Map<string, PaymentStatusReport>()
  for (const report of listener.reports) lastReport.set(report.paymentId, report)
  for (const row of instructions) {
    expect(['EXECUTED', 'FAILED', 'RETURNED']).toContain(row.status)
    if (lastReport.has(row.payment_id)) expect(lastReport.get(row.payment_id)!.status).toBe(row.status)
    const bookings = await database.db
      .selectFrom('transactions')
      .select(['entry_reference', 'amount', 'end_to_end_id', 'returned'])
      .where('account_id', '=', row.account_id)
      .where('entry_reference', 'in', [bankReference('X', row.id), bankReference('R', row.id)])
      .execute()
    const executions = bookings.filter((booking) => booking.entry_reference === bankReference('X', row.id))
    const returns = bookings.filter((booking) => booking.entry_reference === bankReference('R', row.id))
    expect(executions.length).toBe(row.status === 'FAILED' ? 0 : 1)
    expect(returns.length).toBe(row.status === 'RETURNED' ? 1 : 0)
    for (const booking of bookings) expect(booking.end_to_end_id).toBe(row.end_to_end_id)
    if (executions[0] && returns[0]) expect(Number(executions[0].amount) + Number(returns[0].amount)).toBe(0)
  }
})
