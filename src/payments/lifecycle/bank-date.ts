import type { Database, Executor } from '../../db/database.js'
import { bankConnectorFor } from '../../connectivity/index.js'
import { todayUtc } from '../credit-transfers/credit-transfer.rules.js'

/** The business date (yyyy-mm-dd) of the bank that holds an own account. */
export type BankToday = (db: Executor, account: { organizationId: string; accountId: string }) => Promise<string>

/**
 * reference §2.7: a payment's date is "local to the account", so its window (not in the past, at
 * most 60 days ahead) runs from the business date of the bank holding the own account, as that
 * bank's connector reports it (for the sandbox bank: its clock). An account no connector serves yet
 * has no bank to ask and is dated by the calendar (UTC).
 */
export function bankTodayOf(database: Database): BankToday {
  return async (db, { organizationId, accountId }) => {
    const connector = await bankConnectorFor(database, db, accountId)
    return connector ? connector.today(db, organizationId) : todayUtc()
  }
}
