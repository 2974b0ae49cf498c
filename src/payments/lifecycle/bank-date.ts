import type { QueryResult } from 'kysely'
import type { Executor } from '../../db/database.js'
import { runTogether } from '../../db/prepared-query.js'
import { bankTodayReads, type BankTodayReads } from '../../connectivity/index.js'
import { todayUtc } from '../credit-transfers/credit-transfer.rules.js'

interface OwnAccount {
  organizationId: string
  accountId: string
}

/** The business date (yyyy-mm-dd) of the bank that holds an own account. */
export interface BankToday {
  (db: Executor, account: OwnAccount): Promise<string>
  /** The same as reads to run with others (runTogether: a create reads it with its parties, one round trip). */
  reads(db: Executor, account: OwnAccount): { statements: BankTodayReads['statements']; today(answers: readonly QueryResult<unknown>[]): Promise<string> }
}

/**
 * reference §2.7: a payment's date is "local to the account", so its window (not in the past, at
 * most 60 days ahead) runs from the business date of the bank holding the own account, as that
 * bank's connector reports it (for the sandbox bank: its clock). An account no connector serves yet
 * has no bank to ask and is dated by the calendar (UTC).
 */
function reads(db: Executor, { organizationId, accountId }: OwnAccount) {
  const bank = bankTodayReads(db, organizationId, accountId)
  return { statements: bank.statements, today: async (answers: readonly QueryResult<unknown>[]) => (await bank.today(answers)) ?? todayUtc() }
}

export const bankToday: BankToday = Object.assign(
  async (db: Executor, account: OwnAccount) => {
    const { statements, today } = reads(db, account)
    return today(await runTogether(db, statements))
  },
  { reads },
)
