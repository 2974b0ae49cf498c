import { addDays } from '../../shared/calendar.js'

/** A booked balance as a figure at the end of a day: a CLOSE of day d, or an OPEN of day d (the end of d − 1). */
export interface DayEnd {
  endOf: string
  amount: number
}

export function dayEndOf(balance: { reportedType: 'OPEN' | 'CLOSE'; localDate: string; amount: number }): DayEnd {
  return { endOf: balance.reportedType === 'CLOSE' ? balance.localDate : addDays(balance.localDate, -1), amount: balance.amount }
}

/** Signed sum of the booked transactions with a booking date after `after` (when given) through `through` (when given). */
export type BookedSum = (after: string | undefined, through: string | undefined) => Promise<number>

/**
 * The booked balance at the end of `day`, as GET …/balances reports it where it has that day, and derived
 * from the nearest reported balance and the transactions booked between otherwise: the latest day-end at or
 * before `day` plus what was booked after it; failing one, the earliest after `day` less what was booked
 * up to it; failing any, the sum of everything booked through `day` (an account starts at zero).
 * `before` and `after` are the nearest reported day-ends on either side, as the repository found them.
 */
export async function balanceAtEndOf(day: string, before: DayEnd | undefined, after: DayEnd | undefined, bookedSum: BookedSum): Promise<number> {
  if (before) return before.endOf === day ? before.amount : before.amount + (await bookedSum(before.endOf, day))
  if (after) return after.amount - (await bookedSum(day, after.endOf))
  return bookedSum(undefined, day)
}

/** Of two day-ends, the later (`latest`) or earlier one; a CLOSE and the next day's OPEN tie, and the first given wins. */
export function nearer(a: DayEnd | undefined, b: DayEnd | undefined, latest: boolean): DayEnd | undefined {
  if (!a || !b) return a ?? b
  if (a.endOf === b.endOf) return a
  return (a.endOf > b.endOf) === latest ? a : b
}
