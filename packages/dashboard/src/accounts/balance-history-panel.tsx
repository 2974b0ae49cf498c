import { paginate } from '@kassa/client'
import { kassa } from '../api/kassa'
import { useLoad } from '../api/use-load'
import { calendarToday } from '../payments/bank-date'
import { navigate, useLocation, withQuery } from '../router/router'
import { Loadable } from '../ui/loadable'
import { SelectField } from '../ui/select-field'
import type { Balance } from './account-types'
import { BalanceChart } from './balance-chart'
import { dailyBalances, daysBefore } from './balance-history'

/** The periods the chart shows (?days=…); three months unless the address says otherwise. */
const PERIODS = [
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 12 months' },
]
const DEFAULT_DAYS = 90

async function bookedBalances(accountId: string, from: string, to: string): Promise<Balance[]> {
  const balances: Balance[] = []
  const query = { type: 'BOOKED' as const, 'date[gte]': from, 'date[lte]': to, limit: 500 }
  for await (const balance of paginate(kassa, '/financial-data/v2/accounts/{id}/balances', { path: { id: accountId }, query })) balances.push(balance)
  return balances
}

/**
 * The account's booked balance over a period that ends on its latest reported day (`lastDay`): an
 * account whose statements stop in the past still shows its last months, not an empty chart.
 */
export function BalanceHistoryPanel({ accountId, accountName, lastDay }: { accountId: string; accountName: string; lastDay: string | undefined }) {
  const location = useLocation()
  const days = PERIODS.find((period) => String(period.days) === location.query.get('days'))?.days ?? DEFAULT_DAYS
  const to = lastDay ?? calendarToday()
  const from = daysBefore(to, days - 1)
  const history = useLoad(() => bookedBalances(accountId, from, to), [accountId, from, to])
  const period = PERIODS.find((choice) => choice.days === days)!

  return (
    <section class="panel" aria-labelledby="balance-history">
      <div class="panel-header">
        <h2 id="balance-history">Balance history</h2>
        <SelectField
          label="Period"
          value={String(days)}
          choices={PERIODS.map((choice) => ({ value: String(choice.days), label: choice.label }))}
          onChange={(value) => navigate(withQuery(location, { days: value }), { replace: true })}
        />
      </div>
      <Loadable state={history} what="Loading the balance history…">
        {(balances) => <BalanceChart days={dailyBalances(balances)} title={`Booked balance of ${accountName}, ${period.label.toLowerCase()}`} />}
      </Loadable>
    </section>
  )
}
