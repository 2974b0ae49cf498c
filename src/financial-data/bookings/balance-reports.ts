import type { Executor } from '../../db/database.js'
import type { AccountsTable, BalancesTable } from '../../db/schema.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { balanceRepo } from '../balances/balance.repo.js'
import type { ReportedBalance } from './booking.service.js'

/**
 * `reportBalance` for many balances of one account at once (a statement's or a simulated
 * bank's day-by-day balances): the same replace-by-(type, reported type, day) rule, in multi-row
 * statements. Of repeated (type, reported type, day) in `balances`, the last one counts.
 */
export async function reportBalances(
  trx: Executor,
  account: Pick<AccountsTable, 'id' | 'organization_id' | 'currency'>,
  balances: readonly ReportedBalance[],
): Promise<void> {
  const timestamp = nowIso()
  const rows = new Map<string, BalancesTable>()
  for (const balance of balances) {
    rows.set(`${balance.type}/${balance.reportedType}/${balance.localDate}`, {
      id: newId(),
      organization_id: account.organization_id,
      account_id: account.id,
      type: balance.type,
      reported_type: balance.reportedType,
      amount: balance.amount,
      currency: account.currency,
      local_date: balance.localDate,
      timestamp,
      version: 1,
    })
  }
  if (rows.size > 0) await balanceRepo.upsertMany(trx, [...rows.values()])
}
