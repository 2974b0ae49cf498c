import type { Executor } from '../../db/database.js'
import type { AccountsTable, SandboxAccountsTable } from '../../db/schema.js'
import { reportBalances } from '../bookings/balance-reports.js'
import type { ReportedBalance } from '../bookings/booking.service.js'
import { addDays, maxDate } from '../../shared/calendar.js'
import { availableBalance, bookedReports, runningBalances } from './ledger.js'
import { sandboxRepo } from './sandbox.repo.js'

export type LedgerAccount = Pick<AccountsTable, 'id' | 'organization_id' | 'currency'> & Pick<SandboxAccountsTable, 'opening_balance' | 'opening_date'>

/**
 * Reports an account's balances again from `from` through the bank's `today`, from the ledger:
 * BOOKED CLOSE for each day before today, BOOKED INTERIM for today (and for any earlier day that
 * has one, so none is left stale), AVAILABLE INTERIM for today. Called after anything that books,
 * reserves or moves the clock; `from` is the earliest day it touched.
 */
export async function reportLedgerBalances(trx: Executor, account: LedgerAccount, from: string, today: string, reserved: number): Promise<void> {
  const start = maxDate(from, account.opening_date)
  const { before, byDate } = await sandboxRepo.dailySums(trx, account.id, start)
  const days = runningBalances(account.opening_balance + before, byDate, start, today)
  const balanceOn = new Map(days.map((day) => [day.date, day.balance]))
  const reports: ReportedBalance[] = bookedReports(days, today)
  if (start < today) {
    for (const date of await sandboxRepo.interimDates(trx, account.id, start, addDays(today, -1))) {
      reports.push({ type: 'BOOKED', reportedType: 'INTERIM', localDate: date, amount: balanceOn.get(date)! })
    }
  }
  reports.push({ type: 'AVAILABLE', reportedType: 'INTERIM', localDate: today, amount: availableBalance(balanceOn.get(today)!, reserved) })
  await reportBalances(trx, account, reports)
}
