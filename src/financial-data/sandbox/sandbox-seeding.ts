import type { Executor } from '../../db/database.js'
import { nowIso } from '../../shared/clock.js'
import { reportBalances } from '../bookings/balance-reports.js'
import { bookEntries, type ReportedBalance } from '../bookings/booking.service.js'
import { BANK_ORIGINATOR } from './bank-connector.js'
import { generateHistory, HISTORY_DAYS } from './history.js'
import { bookedReports, runningBalances, sumsByDate } from './ledger.js'
import type { OpenedSandboxAccount } from './sandbox-accounts.js'
import { sandboxRepo } from './sandbox.repo.js'

/**
 * Opens the sandbox bank's books for a new organization, in the caller's transaction: the clock
 * at `today`, each account's opening balance `HISTORY_DAYS` before it, the seeded history booked
 * through `bookEntries`, and the balances that follow from it — BOOKED OPEN on the opening day,
 * BOOKED CLOSE for every day up to yesterday, BOOKED and AVAILABLE INTERIM for today.
 */
export async function seedSandboxBank(trx: Executor, organizationId: string, accounts: readonly OpenedSandboxAccount[], today: string): Promise<void> {
  const now = nowIso()
  await sandboxRepo.insertBank(trx, { organization_id: organizationId, today, version: 1, created: now, updated: now })
  const ledgers = generateHistory(
    organizationId,
    accounts.map((account) => ({ role: account.role, name: account.row.name, currency: account.row.currency, iban: account.iban })),
    today,
    HISTORY_DAYS,
  )
  await sandboxRepo.insertAccounts(
    trx,
    accounts.map((account, index) => ({
      account_id: account.row.id,
      organization_id: organizationId,
      opening_balance: ledgers[index]!.openingBalance,
      opening_date: ledgers[index]!.openingDate,
      created: now,
    })),
  )
  for (const [index, account] of accounts.entries()) {
    const ledger = ledgers[index]!
    await bookEntries(trx, account.row, ledger.entries, BANK_ORIGINATOR)
    const days = runningBalances(ledger.openingBalance, sumsByDate(ledger.entries), ledger.openingDate, today)
    const balances: ReportedBalance[] = [
      { type: 'BOOKED', reportedType: 'OPEN', localDate: ledger.openingDate, amount: ledger.openingBalance },
      ...bookedReports(days, today),
      { type: 'AVAILABLE', reportedType: 'INTERIM', localDate: today, amount: days[days.length - 1]!.balance },
    ]
    await reportBalances(trx, account.row, balances)
  }
}
