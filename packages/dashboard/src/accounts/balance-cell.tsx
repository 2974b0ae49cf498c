import { Amount, CalendarDate } from '../format/format'
import type { Balance } from './account-types'

const REPORTED: Record<Balance['reportedType'], string> = { OPEN: 'opening', CLOSE: 'closing', INTERIM: 'so far' }

/** A balance with the day it is of ("€12,726.85 · closing, 2 Mar 2026"); a dash when none was reported. */
export function BalanceFigure({ balance }: { balance: Balance | undefined }) {
  if (!balance) return <span class="secondary">—</span>
  return (
    <>
      <Amount amount={balance.amount} />
      <span class="secondary">
        {REPORTED[balance.reportedType]}, <CalendarDate date={balance.localDate} />
      </span>
    </>
  )
}
