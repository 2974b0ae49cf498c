import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { addDays } from '../../src/shared/calendar.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { createTestDatabase } from '../support/test-database.js'
import type { Database } from '../../src/db/database.js'
import { ledgerProblems, reportedBalance, sandboxAccounts } from './sandbox-helpers.js'

let t: TestApp
beforeAll(async () => {
  // No payment worker: its processDue would move these banks' clocks in the background.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const ORG = '01978a3c-1234-7abc-8def-0123456789ab'
const TODAY = '2025-06-16'

/** The organization's booked history as a bank would print it: everything but Kassa's own ids and times. */
async function historyOf(database: Database, organizationId: string) {
  const accounts = await sandboxAccounts(database, organizationId)
  const openings = await database.db.selectFrom('sandbox_accounts').selectAll().where('organization_id', '=', organizationId).execute()
  return Promise.all(
    accounts.map(async (account) => ({
      name: account.name,
      iban: account.iban,
      opening: openings.filter((o) => o.account_id === account.id).map((o) => [Number(o.opening_balance), o.opening_date]),
      entries: (
        await database.db
          .selectFrom('transactions')
          .select(['amount', 'date', 'value_date', 'description', 'reference', 'end_to_end_id', 'counterparty', 'bank_transaction_code', 'entry_reference'])
          .where('account_id', '=', account.id)
          .orderBy('entry_reference')
          .execute()
      ).map((entry) => ({ ...entry, amount: Number(entry.amount) })),
    })),
  )
}

describe('seeding', () => {
  it('gives the same organization id the same history, in another database too', async () => {
    const other = await createTestDatabase()
    try {
      await createSandboxOrganization(t.db.database, 'First', { organizationId: ORG, today: TODAY })
      await createSandboxOrganization(other.database, 'Second', { organizationId: ORG, today: TODAY })
      const here = await historyOf(t.db.database, ORG)
      const there = await historyOf(other.database, ORG)
      expect(here.reduce((n, account) => n + account.entries.length, 0)).toBeGreaterThan(200)
      expect(there).toEqual(here)
    } finally {
      await other.destroy()
    }
  })

  it('gives another organization another history', async () => {
    const { organizationId } = await createSandboxOrganization(t.db.database, 'Third', { today: TODAY })
    const mine = await historyOf(t.db.database, organizationId)
    const theirs = await historyOf(t.db.database, ORG)
    expect(mine.map((account) => account.iban)).not.toEqual(theirs.map((account) => account.iban))
    expect(mine[0]!.entries.map((entry) => entry.amount)).not.toEqual(theirs[0]!.entries.map((entry) => entry.amount))
  })

  it('books several months of realistic history, visible through the API', async () => {
    const accounts = await sandboxAccounts(t.db.database, t.owner.organizationId)
    expect(accounts.map((account) => account.currency).sort()).toEqual(['EUR', 'EUR', 'SEK'])
    const today = new Date().toISOString().slice(0, 10)
    for (const account of accounts) {
      const response = await t.request({ method: 'GET', url: `/financial-data/v2/transactions?accountId=${account.id}&limit=500` })
      expect(response.statusCode).toBe(200)
      const items = response.json().items as {
        date: string
        valueDate: string
        amount: { value: number; currency: string }
        description: string
        bankTransactionCode?: { domain: string; family: string; subfamily: string }
        counterparty?: { name: string }
      }[]
      expect(items.length).toBeGreaterThan(15) // the payroll account has the fewest: funding, salaries, taxes, fees
      const dates = items.map((item) => item.date).sort()
      expect(dates[0]! <= addDays(today, -80)).toBe(true)
      expect(dates[dates.length - 1]! < today).toBe(true)
      expect(new Set(dates.map((date) => date.slice(0, 7))).size).toBeGreaterThanOrEqual(3)
      expect(new Set(items.map((item) => `${item.bankTransactionCode?.family}/${item.bankTransactionCode?.subfamily}`)).size).toBeGreaterThanOrEqual(3)
      expect(items.some((item) => item.amount.value > 0) && items.some((item) => item.amount.value < 0)).toBe(true)
      expect(items.every((item) => item.amount.currency === account.currency && item.description.length > 0)).toBe(true)
      expect(items.filter((item) => item.counterparty?.name).length).toBeGreaterThan(items.length / 2)
    }
    const operating = accounts.find((account) => account.name === 'Operating account')!
    const response = await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${operating.id}/balances?mostRecent=true` })
    const latest = response.json().items as { type: string; reportedType: string; localDate: string; amount: { value: number } }[]
    const booked = latest.find((balance) => balance.type === 'BOOKED')!
    const available = latest.find((balance) => balance.type === 'AVAILABLE')!
    expect(booked).toMatchObject({ reportedType: 'INTERIM', localDate: today })
    expect(available).toMatchObject({ reportedType: 'INTERIM', localDate: today, amount: { value: booked.amount.value } })
    const closes = await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${operating.id}/balances?reportedType=CLOSE&limit=500` })
    expect(closes.json().items.length).toBe(90)
  })

  it('keeps the ledger invariant for every account and every day', async () => {
    expect(await ledgerProblems(t.db.database, t.owner.organizationId)).toEqual([])
    expect(await ledgerProblems(t.db.database, ORG)).toEqual([])
    const [account] = await sandboxAccounts(t.db.database, ORG)
    const opening = await t.db.database.db.selectFrom('sandbox_accounts').selectAll().where('account_id', '=', account!.id).executeTakeFirstOrThrow()
    expect(await reportedBalance(t.db.database, account!.id, 'BOOKED', 'OPEN', opening.opening_date)).toBe(Number(opening.opening_balance))
  })

  it('is fast enough to seed every test organization', async () => {
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      await createSandboxOrganization(t.db.database, `Timing ${i}`)
      times.push(performance.now() - started)
    }
    const median = times.sort((a, b) => a - b)[2]!
    process.stdout.write(`sandbox organization with seeded history (${t.db.database.dialect}): median ${median.toFixed(0)} ms\n`)
    expect(median).toBeLessThan(1_000) // generous: CI machines are busy; typically well under 100 ms on SQLite
  })
})
