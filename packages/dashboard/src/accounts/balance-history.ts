import type { Balance } from './account-types'

/** An account's booked balance at the end of a day (or so far today). */
export interface DailyBalance {
  date: string
  amount: Balance['amount']
}

/** Which report of a day stands for it: the closing one, else the latest interim, else the opening. */
const RANK: Record<Balance['reportedType'], number> = { CLOSE: 3, INTERIM: 2, OPEN: 1 }

/** One balance per day, oldest first, from the BOOKED balances the API lists (several reports a day). */
export function dailyBalances(balances: Balance[]): DailyBalance[] {
  const byDay = new Map<string, Balance>()
  for (const balance of balances) {
    if (balance.type !== 'BOOKED') continue
    const kept = byDay.get(balance.localDate)
    const better = !kept || RANK[balance.reportedType] > RANK[kept.reportedType] || (RANK[balance.reportedType] === RANK[kept.reportedType] && balance.timestamp > kept.timestamp)
    if (better) byDay.set(balance.localDate, balance)
  }
  return [...byDay.values()].sort((a, b) => a.localDate.localeCompare(b.localDate)).map((balance) => ({ date: balance.localDate, amount: balance.amount }))
}

const DAY_MILLISECONDS = 86_400_000
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MILLISECONDS

/** yyyy-mm-dd `days` before `date` (calendar days, no time zone involved). */
export function daysBefore(date: string, days: number): string {
  return new Date((dayNumber(date) - days) * DAY_MILLISECONDS).toISOString().slice(0, 10)
}

export interface ChartShape {
  /** SVG path data of the balance line and of the area beneath it, in a width × height box (y grows down). */
  line: string
  area: string
  lowest: DailyBalance
  highest: DailyBalance
}

/**
 * The balance line in a `width` × `height` box: days placed by their date (a day without a report
 * leaves a longer segment, not a squeezed one), the lowest balance at the bottom and the highest at the
 * top, a flat line through the middle when they are equal. Minor units become coordinates only here:
 * a picture may round, the amounts shown beside it never do.
 */
export function chartShape(days: DailyBalance[], width: number, height: number): ChartShape | undefined {
  if (days.length === 0) return undefined
  const lowest = days.reduce((low, day) => (day.amount.value < low.amount.value ? day : low))
  const highest = days.reduce((high, day) => (day.amount.value > high.amount.value ? day : high))
  const first = dayNumber(days[0]!.date)
  const span = dayNumber(days[days.length - 1]!.date) - first
  const range = highest.amount.value - lowest.amount.value
  const round = (n: number) => Math.round(n * 100) / 100
  const points = days.map((day) => ({
    x: round(span === 0 ? width / 2 : ((dayNumber(day.date) - first) / span) * width),
    y: round(range === 0 ? height / 2 : height - ((day.amount.value - lowest.amount.value) / range) * height),
  }))
  // A single day is drawn as a level line across, so it is seen at all.
  const line = points.length === 1 ? `M0,${points[0]!.y} H${width}` : `M${points.map(({ x, y }) => `${x},${y}`).join(' L')}`
  const [startX, endX] = points.length === 1 ? [0, width] : [points[0]!.x, points[points.length - 1]!.x]
  return { line, area: `${line} L${endX},${height} L${startX},${height} Z`, lowest, highest }
}
