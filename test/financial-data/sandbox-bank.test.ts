import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../src/db/database.js'
import { BankConnectorError, createSandboxBank, sandboxConnectorFor, RETURNING_IBAN, type SandboxBank } from '../../src/financial-data/sandbox/index.js'
import { addDays } from '../../src/shared/calendar.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { bankToday, bookedNow, creditTransfer, ledgerProblems, recordingListener, reportedBalance, sandboxAccounts } from './sandbox-helpers.js'

const TODAY = '2025-06-16'

let t: TestApp
let database: Database
beforeAll(async () => {
  // No payment worker: its processDue would move these banks' clocks in the background.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  database = t.db.database
})
afterAll(() => t.close())

/** A fresh sandbox organization whose bank's today is TODAY, its operating (EUR) account, and a bank that records reports. */
/**
 * `amount`, or the nearest amount `step` away whose minor units do not end in 04: the seeded balances are random, and
 * the sandbox bank rejects any amount ending in 04 on receipt (its scripted AC04), before looking at funds.
 */
function unscripted(amount: number, step = -1): number {
  return amount % 100 === 4 ? amount + step : amount
}

async function setup() {
  const { organizationId } = await createSandboxOrganization(database, 'Bank test', { today: TODAY })
  const accounts = await sandboxAccounts(database, organizationId)
  const operating = accounts.find((account) => account.name === 'Operating account')!
  const listener = recordingListener()
  const bank = createSandboxBank(database, { listener })
  const submit = (overrides: Parameters<typeof creditTransfer>[2] = {}) =>
    database.transaction((trx) => bank.submit(trx, creditTransfer(organizationId, operating.id, { executionDate: TODAY, ...overrides })))
  return { organizationId, accounts, operating, listener, bank, submit }
}

async function expectBooksRight(organizationId: string) {
  expect(await ledgerProblems(database, organizationId)).toEqual([])
}

describe('submitting and executing', () => {
  it('accepts a payment the funds cover, reserves it on AVAILABLE, and books it when processed', async () => {
    const { organizationId, operating, listener, bank, submit } = await setup()
    const booked = await bookedNow(database, operating.id)
    expect(await reportedBalance(database, operating.id, 'AVAILABLE', 'INTERIM', TODAY)).toBe(booked)

    const ack = await submit({ amount: 12_345, reference: 'Invoice 4711', endToEndId: 'E2E-4711' })
    expect(ack).toMatchObject({ connector: 'sandbox', status: 'ACCEPTED', bankDate: TODAY, accountId: operating.id })
    expect(ack.transaction).toBeUndefined()
    expect(listener.reports).toEqual([]) // the acknowledgement is the return value, not a listener call
    expect(await reportedBalance(database, operating.id, 'AVAILABLE', 'INTERIM', TODAY)).toBe(booked - 12_345)
    expect(await reportedBalance(database, operating.id, 'BOOKED', 'INTERIM', TODAY)).toBe(booked)
    await expectBooksRight(organizationId)

    const step = await bank.advance(organizationId, { days: 0 })
    expect(step).toMatchObject({ previousToday: TODAY, today: TODAY })
    expect(listener.reports.map((r) => r.status)).toEqual(['EXECUTED'])
    const executed = listener.reports[0]!
    expect(executed).toMatchObject({ instructionId: ack.instructionId, paymentId: ack.paymentId, bankDate: TODAY, endToEndId: 'E2E-4711' })
    expect(executed.transaction).toMatchObject({
      accountId: operating.id,
      amount: { currency: 'EUR', value: -12_345, stringValue: '-123.45' },
      date: TODAY,
      valueDate: TODAY,
      reference: 'Invoice 4711',
      references: { endToEndId: 'E2E-4711' },
      counterparty: { name: 'Acme GmbH', account: { identifiers: [{ type: 'IBAN', number: 'DE89370400440532013000' }] } },
      bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' },
      returned: false,
    })
    expect(await bookedNow(database, operating.id)).toBe(booked - 12_345)
    expect(await reportedBalance(database, operating.id, 'AVAILABLE', 'INTERIM', TODAY)).toBe(booked - 12_345)
    expect(await bank.find(database.db, organizationId, ack.paymentId)).toMatchObject({ status: 'EXECUTED' })
    await expectBooksRight(organizationId)
  })

  it('fails AM04 when the booked balance minus reservations does not cover the payment', async () => {
    const { organizationId, operating, submit } = await setup()
    const booked = await bookedNow(database, operating.id)
    expect(await submit({ amount: unscripted(booked + 1, 1) })).toMatchObject({ status: 'FAILED', reason: { code: 'AM04', description: 'Insufficient funds' } })
    let first = unscripted(Math.floor(booked * 0.6))
    while (unscripted(booked - first) !== booked - first) first = unscripted(first - 1)
    expect((await submit({ amount: first })).status).toBe('ACCEPTED')
    // Booked alone would cover the second one; the first one's reservation does not leave enough.
    expect(await submit({ amount: first })).toMatchObject({ status: 'FAILED', reason: { code: 'AM04' } })
    expect((await submit({ amount: booked - first })).status).toBe('ACCEPTED')
    expect(await reportedBalance(database, operating.id, 'AVAILABLE', 'INTERIM', TODAY)).toBe(0)
    await expectBooksRight(organizationId)
  })

  it('executes, then returns a payment to the returning IBAN with AC04 and a return credit', async () => {
    const { organizationId, operating, listener, bank, submit } = await setup()
    const booked = await bookedNow(database, operating.id)
    const ack = await submit({ amount: 50_000, counterparty: { name: 'Closed Account AG', iban: RETURNING_IBAN }, endToEndId: 'E2E-RET' })
    expect(ack.status).toBe('ACCEPTED')
    await bank.advance(organizationId, { days: 0 })
    expect(listener.reports.map((r) => [r.status, r.reason?.code, r.transaction?.amount.value])).toEqual([
      ['EXECUTED', undefined, -50_000],
      ['RETURNED', 'AC04', 50_000],
    ])
    expect(listener.reports[1]!.transaction).toMatchObject({
      returned: true,
      returnReason: { code: 'AC04', description: 'Closed account number' },
      references: { endToEndId: 'E2E-RET' },
      bankTransactionCode: { family: 'ICDT', subfamily: 'RRTN' },
      date: TODAY,
    })
    expect(await bookedNow(database, operating.id)).toBe(booked)
    const row = await database.db.selectFrom('sandbox_instructions').selectAll().where('id', '=', ack.instructionId).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'RETURNED', reason_code: 'AC04', booked_date: TODAY })
    expect(row.transaction_id).toBe(listener.reports[0]!.transaction!.id)
    expect(row.return_transaction_id).toBe(listener.reports[1]!.transaction!.id)
    await expectBooksRight(organizationId)
  })

  it('lets future-dated payments wait for their date, then books each on its date', async () => {
    const { organizationId, operating, listener, bank, submit } = await setup()
    const booked = await bookedNow(database, operating.id)
    const soon = await submit({ amount: 1_000, executionDate: addDays(TODAY, 2) })
    const later = await submit({ amount: 2_000, executionDate: addDays(TODAY, 5) })
    expect([soon.status, later.status]).toEqual(['PENDING_AT_BANK', 'PENDING_AT_BANK'])
    expect(await reportedBalance(database, operating.id, 'AVAILABLE', 'INTERIM', TODAY)).toBe(booked) // nothing reserved yet

    await bank.advance(organizationId, { days: 1 })
    expect(listener.reports).toEqual([])
    const step = await bank.advance(organizationId, { to: addDays(TODAY, 10) })
    expect(step).toMatchObject({ previousToday: addDays(TODAY, 1), today: addDays(TODAY, 10) })
    expect(listener.reports.map((r) => [r.paymentId, r.status, r.bankDate])).toEqual([
      [soon.paymentId, 'ACCEPTED', addDays(TODAY, 2)],
      [soon.paymentId, 'EXECUTED', addDays(TODAY, 2)],
      [later.paymentId, 'ACCEPTED', addDays(TODAY, 5)],
      [later.paymentId, 'EXECUTED', addDays(TODAY, 5)],
    ])
    expect(listener.reports[1]!.transaction!.date).toBe(addDays(TODAY, 2))
    expect(listener.reports[3]!.transaction!.date).toBe(addDays(TODAY, 5))
    expect(await bankToday(database, organizationId)).toBe(addDays(TODAY, 10))
    expect(await reportedBalance(database, operating.id, 'BOOKED', 'CLOSE', addDays(TODAY, 1))).toBe(booked)
    expect(await reportedBalance(database, operating.id, 'BOOKED', 'CLOSE', addDays(TODAY, 2))).toBe(booked - 1_000)
    expect(await reportedBalance(database, operating.id, 'BOOKED', 'CLOSE', addDays(TODAY, 5))).toBe(booked - 3_000)
    expect(await reportedBalance(database, operating.id, 'BOOKED', 'INTERIM', addDays(TODAY, 10))).toBe(booked - 3_000)
    await expectBooksRight(organizationId)
  })

  it('checks a future-dated payment’s funds on its date: FAILED AM04 if they are gone', async () => {
    const { organizationId, operating, listener, bank, submit } = await setup()
    const booked = await bookedNow(database, operating.id)
    const waiting = await submit({ amount: unscripted(booked - 100), executionDate: addDays(TODAY, 1) })
    expect(waiting.status).toBe('PENDING_AT_BANK')
    expect((await submit({ amount: 200 })).status).toBe('ACCEPTED') // today: takes funds first
    await bank.advance(organizationId, { days: 1 })
    expect(listener.reports.filter((r) => r.paymentId === waiting.paymentId).map((r) => [r.status, r.reason?.code])).toEqual([['FAILED', 'AM04']])
    await expectBooksRight(organizationId)
  })

  it('credits a direct debit collection on its due date, and debits its return', async () => {
    const { organizationId, operating, listener, bank, submit } = await setup()
    const booked = await bookedNow(database, operating.id)
    const collect = await submit({ paymentType: 'DIRECT_DEBIT', amount: 7_500, mandateReference: 'MNDT-1', scheme: 'SDD_CORE', executionDate: addDays(TODAY, 1) })
    const bounced = await submit({ paymentType: 'DIRECT_DEBIT', amount: 2_500, mandateReference: 'MNDT-2', counterparty: { name: 'Gone GmbH', iban: RETURNING_IBAN } })
    expect([collect.status, bounced.status]).toEqual(['PENDING_AT_BANK', 'ACCEPTED'])
    await bank.advance(organizationId, { days: 1 })
    expect(listener.reports.map((r) => [r.paymentId, r.status, r.transaction?.amount.value])).toEqual([
      [bounced.paymentId, 'EXECUTED', 2_500],
      [bounced.paymentId, 'RETURNED', -2_500],
      [collect.paymentId, 'ACCEPTED', undefined],
      [collect.paymentId, 'EXECUTED', 7_500],
    ])
    expect(listener.reports[3]!.transaction).toMatchObject({ references: { mandateReference: 'MNDT-1' }, bankTransactionCode: { family: 'IDDT', subfamily: 'ESDD' } })
    expect(await bookedNow(database, operating.id)).toBe(booked + 7_500)
    await expectBooksRight(organizationId)
  })

  it('lets only one of two payments racing for the last funds through', async () => {
    const { organizationId, operating, bank } = await setup()
    const booked = await bookedNow(database, operating.id)
    const amount = unscripted(Math.floor(booked * 0.7))
    const race = await Promise.all(
      [1, 2].map(() =>
        database.transaction((trx) => bank.submit(trx, creditTransfer(organizationId, operating.id, { executionDate: TODAY, amount }))),
      ),
    )
    expect(race.map((ack) => ack.status).sort()).toEqual(['ACCEPTED', 'FAILED'])
    expect(race.find((ack) => ack.status === 'FAILED')!.reason?.code).toBe('AM04')
    await bank.advance(organizationId, { days: 0 })
    expect(await bookedNow(database, operating.id)).toBe(booked - amount)
    await expectBooksRight(organizationId)
  })

  it('fails instructions no bank would take, at once', async () => {
    const { submit } = await setup()
    expect(await submit({ currency: 'SEK' })).toMatchObject({ status: 'FAILED', reason: { code: 'AM03' } })
    expect(await submit({ counterparty: { name: 'X', iban: 'DE00370400440532013000' } })).toMatchObject({ status: 'FAILED', reason: { code: 'AC01' } })
    expect(await submit({ amount: -5 })).toMatchObject({ status: 'FAILED', reason: { code: 'AM12' } })
  })

  it('answers a repeated submission with the instruction it holds, reserving once', async () => {
    const { organizationId, operating, bank } = await setup()
    const booked = await bookedNow(database, operating.id)
    const instruction = creditTransfer(organizationId, operating.id, { executionDate: TODAY, amount: 3_000 })
    const first = await database.transaction((trx) => bank.submit(trx, instruction))
    const again = await database.transaction((trx) => bank.submit(trx, { ...instruction, amount: 999_999 }))
    expect(again).toEqual(first)
    expect(await reportedBalance(database, operating.id, 'AVAILABLE', 'INTERIM', TODAY)).toBe(booked - 3_000)
  })

  it('refuses accounts it does not hold', async () => {
    const { organizationId, bank } = await setup()
    const other = await setup()
    await expect(database.transaction((trx) => bank.submit(trx, creditTransfer(organizationId, other.operating.id)))).rejects.toBeInstanceOf(BankConnectorError)
    expect(await sandboxConnectorFor(database, database.db, other.operating.id)).toBeDefined()
    expect(await sandboxConnectorFor(database, database.db, '01978a3c-0000-7000-8000-00000000dead')).toBeUndefined()
  })

  it('rolls the whole step back when the listener fails', async () => {
    const { organizationId, operating, listener, bank, submit } = await setup()
    const booked = await bookedNow(database, operating.id)
    const ack = await submit({ amount: 4_000 })
    listener.failOn = (report) => report.status === 'EXECUTED'
    await expect(bank.advance(organizationId, { days: 3 })).rejects.toThrow('listener refuses EXECUTED')
    expect(await bankToday(database, organizationId)).toBe(TODAY)
    expect(await bookedNow(database, operating.id)).toBe(booked)
    expect(await bank.find(database.db, organizationId, ack.paymentId)).toMatchObject({ status: 'ACCEPTED' })
    listener.failOn = undefined
    await bank.advance(organizationId, { days: 3 })
    expect(await bank.find(database.db, organizationId, ack.paymentId)).toMatchObject({ status: 'EXECUTED' })
    await expectBooksRight(organizationId)
  })
})

describe('the clock', () => {
  it('refuses to go back or too far', async () => {
    const { organizationId, bank } = await setup()
    await expect(bank.advance(organizationId, { to: addDays(TODAY, -1) })).rejects.toMatchObject({ status: 400 })
    await expect(bank.advance(organizationId, { days: 367 })).rejects.toMatchObject({ status: 400 })
    await expect(bank.advance(organizationId, { to: '2025-02-30' })).rejects.toMatchObject({ status: 400 })
    expect((await bank.advance(organizationId, { atLeast: addDays(TODAY, -5) })).today).toBe(TODAY)
  })

  it('follows the real date and processes what is due when a worker calls processDue', async () => {
    const { organizationId, operating, listener, bank, submit } = await setup()
    const booked = await bookedNow(database, operating.id)
    const ack = await submit({ amount: 800, executionDate: addDays(TODAY, 1) })
    const { results, errors } = await bank.processDue(new Date(`${addDays(TODAY, 2)}T09:30:00Z`))
    expect(errors).toEqual([])
    expect(results.find((result) => result.organizationId === organizationId)).toMatchObject({ previousToday: TODAY, today: addDays(TODAY, 2) })
    expect(listener.reports.filter((r) => r.paymentId === ack.paymentId).map((r) => r.status)).toEqual(['ACCEPTED', 'EXECUTED'])
    expect(await reportedBalance(database, operating.id, 'BOOKED', 'CLOSE', addDays(TODAY, 1))).toBe(booked - 800)
    // Nothing left to do: the next pass leaves this bank alone.
    const next = await bank.processDue(new Date(`${addDays(TODAY, 2)}T09:30:02Z`))
    expect(next.results.find((result) => result.organizationId === organizationId)).toBeUndefined()
    // A bank ahead of the real date is not moved back.
    await bank.advance(organizationId, { days: 5 })
    await bank.processDue(new Date(`${addDays(TODAY, 3)}T00:00:00Z`))
    expect(await bankToday(database, organizationId)).toBe(addDays(TODAY, 7))
    expect(await bank.clock(database.db, organizationId, new Date(`${addDays(TODAY, 3)}T12:00:00Z`))).toMatchObject({ today: addDays(TODAY, 7), daysAhead: 4 })
    await expectBooksRight(organizationId)
  })

  it('moves a payment dated today to its final status on the next worker pass', async () => {
    const { organizationId, listener, bank, submit } = await setup()
    const ack = await submit({ amount: 100, counterparty: { name: 'Returns', iban: RETURNING_IBAN } })
    await bank.processDue(new Date(`${TODAY}T12:00:00Z`))
    expect(listener.reports.filter((r) => r.paymentId === ack.paymentId).map((r) => r.status)).toEqual(['EXECUTED', 'RETURNED'])
    await expectBooksRight(organizationId)
  })
})

describe('the default bank', () => {
  it('is a connector other domains can resolve', async () => {
    const { operating } = await setup()
    const connector = (await sandboxConnectorFor(database, database.db, operating.id)) as SandboxBank
    expect(connector.name).toBe('sandbox')
    expect(await connector.today(database.db, operating.organization_id)).toBe(TODAY)
  })
})
