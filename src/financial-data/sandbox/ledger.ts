import { addDays, eachDay } from '../../shared/calendar.js'

/**
 * The sandbox bank's ledger rules, pure. The ledger is the source of truth:
 *   booked(account, day) = openingBalance + Σ amounts of entries dated openingDate … day
 *   available(account)   = booked(account, today) − Σ reservations (instructions accepted, not yet booked)
 * Reported balances are derived from it: a BOOKED CLOSE for every day before the bank's today, a
 * BOOKED INTERIM and an AVAILABLE INTERIM for today.
 */

export interface LedgerStart {
  openingBalance: number
  /** The first day of the ledger: no entry is dated before it. */
  openingDate: string
}

export interface LedgerEntry {
  date: string
  /** Signed minor units: negative is an outflow. */
  amount: number
}

export interface DailyBalance {
  date: string
  balance: number
}

/** Σ amounts per booking date. */
export function sumsByDate(entries: readonly LedgerEntry[]): Map<string, number> {
  const sums = new Map<string, number>()
  for (const entry of entries) sums.set(entry.date, (sums.get(entry.date) ?? 0) + entry.amount)
  return sums
}

/**
 * End-of-day booked balances of every day from `from` through `through`, starting from the balance
 * at the start of `from` and the per-day sums of entries in that range.
 */
export function runningBalances(startBalance: number, sums: ReadonlyMap<string, number>, from: string, through: string): DailyBalance[] {
  let balance = startBalance
  return eachDay(from, through).map((date) => {
    balance += sums.get(date) ?? 0
    return { date, balance }
  })
}

/** The booked balance at the end of `day`: opening + every entry dated up to and including it. */
export function bookedBalance(start: LedgerStart, entries: readonly LedgerEntry[], day: string): number {
  if (day < start.openingDate) return start.openingBalance
  let balance = start.openingBalance
  for (const entry of entries) if (entry.date >= start.openingDate && entry.date <= day) balance += entry.amount
  return balance
}

export function availableBalance(booked: number, reserved: number): number {
  return booked - reserved
}

export type BookedReportType = 'CLOSE' | 'INTERIM'

export interface PlannedBalance {
  type: 'BOOKED' | 'AVAILABLE'
  reportedType: 'OPEN' | 'CLOSE' | 'INTERIM'
  localDate: string
  amount: number
}

/** Booked balances as the bank reports them: CLOSE for days already over, INTERIM for today. */
export function bookedReports(balances: readonly DailyBalance[], today: string): PlannedBalance[] {
  return balances
    .filter((day) => day.date <= today)
    .map((day) => ({ type: 'BOOKED', reportedType: day.date < today ? 'CLOSE' : 'INTERIM', localDate: day.date, amount: day.balance }))
}

export interface ReportedBalanceView {
  type: 'BOOKED' | 'AVAILABLE'
  reportedType: 'OPEN' | 'CLOSE' | 'INTERIM'
  localDate: string
  amount: number
}

/**
 * Checks one account's reported balances against its ledger and returns every violation (empty when
 * the books are right): a BOOKED CLOSE for every day from the opening date to yesterday that equals
 * the ledger, a BOOKED INTERIM for today that does, any BOOKED OPEN equal to the balance at the start
 * of its day, no entry before the opening date, and today's AVAILABLE = booked − reserved.
 */
export function ledgerViolations(
  start: LedgerStart,
  entries: readonly LedgerEntry[],
  reported: readonly ReportedBalanceView[],
  today: string,
  reserved: number,
): string[] {
  const problems: string[] = []
  const early = entries.filter((entry) => entry.date < start.openingDate)
  if (early.length > 0) problems.push(`${early.length} entries are dated before the opening date ${start.openingDate}`)
  const late = entries.filter((entry) => entry.date > today)
  if (late.length > 0) problems.push(`${late.length} entries are dated after the bank's today ${today}`)
  const expected = new Map(runningBalances(start.openingBalance, sumsByDate(entries), start.openingDate, today).map((d) => [d.date, d.balance]))
  const byKey = new Map(reported.map((balance) => [`${balance.type}/${balance.reportedType}/${balance.localDate}`, balance.amount]))
  for (const [date, balance] of expected) {
    const reportedType = date < today ? 'CLOSE' : 'INTERIM'
    const actual = byKey.get(`BOOKED/${reportedType}/${date}`)
    if (actual === undefined) problems.push(`no BOOKED ${reportedType} balance for ${date}`)
    else if (actual !== balance) problems.push(`BOOKED ${reportedType} ${date} is ${actual}, the ledger says ${balance}`)
  }
  for (const balance of reported) {
    if (balance.type === 'BOOKED' && balance.reportedType === 'OPEN') {
      const previous = balance.localDate <= start.openingDate ? start.openingBalance : expected.get(addDays(balance.localDate, -1))
      if (previous !== balance.amount) problems.push(`BOOKED OPEN ${balance.localDate} is ${balance.amount}, the ledger says ${previous}`)
    }
  }
  const available = byKey.get(`AVAILABLE/INTERIM/${today}`)
  const booked = expected.get(today) ?? start.openingBalance
  if (available === undefined) problems.push(`no AVAILABLE INTERIM balance for ${today}`)
  else if (available !== availableBalance(booked, reserved)) {
    problems.push(`AVAILABLE ${today} is ${available}, the ledger says ${booked} − ${reserved} reserved`)
  }
  return problems
}
