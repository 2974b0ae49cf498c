/**
 * Local dates (yyyy-mm-dd) as payments and the sandbox bank count them: whole days, no time zone, computed in
 * UTC so that adding a day is always exactly one calendar day.
 */

const DAY_MS = 86_400_000
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar date written yyyy-mm-dd (2025-02-30 is not one). */
export function isLocalDate(text: string): boolean {
  const match = LOCAL_DATE.exec(text)
  if (!match) return false
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return date.toISOString().slice(0, 10) === text
}

function toTime(date: string): number {
  const match = LOCAL_DATE.exec(date)
  if (!match) throw new Error(`Not a local date: ${date}`)
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
}

function fromTime(time: number): string {
  return new Date(time).toISOString().slice(0, 10)
}

/** The UTC date of an instant: the sandbox bank's business day of that moment. */
export function dateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10)
}

export function addDays(date: string, days: number): string {
  return fromTime(toTime(date) + days * DAY_MS)
}

/** Whole days from `from` to `to`: negative when `to` comes first. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toTime(to) - toTime(from)) / DAY_MS)
}

/** Every date from `from` through `to`, both included; empty when `to` comes first. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = []
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day)
  return days
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(toTime(date)).getUTCDay()
}

/** Monday to Friday: the days SEPA and the sandbox bank's history book entries on. */
export function isBusinessDay(date: string): boolean {
  const day = weekday(date)
  return day !== 0 && day !== 6
}

/** The business day on or before `date`. */
export function businessDayOnOrBefore(date: string): string {
  let day = date
  while (!isBusinessDay(day)) day = addDays(day, -1)
  return day
}

/** The business day on or after `date`. */
export function businessDayOnOrAfter(date: string): string {
  let day = date
  while (!isBusinessDay(day)) day = addDays(day, 1)
  return day
}

export function dayOfMonth(date: string): number {
  return Number(date.slice(8, 10))
}

/** The last calendar day of the month `date` is in. */
export function endOfMonth(date: string): string {
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(5, 7))
  return fromTime(Date.UTC(year, month, 0))
}

/** The `day`th of the month `date` is in (clamped to the month's length). */
export function dayInMonth(date: string, day: number): string {
  const last = endOfMonth(date)
  return `${date.slice(0, 8)}${String(Math.min(day, dayOfMonth(last))).padStart(2, '0')}`
}

export function minDate(a: string, b: string): string {
  return a <= b ? a : b
}

export function maxDate(a: string, b: string): string {
  return a >= b ? a : b
}
