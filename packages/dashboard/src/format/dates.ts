/**
 * Dates as people read them. A payment's requested date is a calendar date (yyyy-mm-dd) at its bank,
 * shown as that same day everywhere; a timestamp is an instant, shown in the reader's own time zone.
 */

/** "1 Jul 2025" for "2025-07-01", whatever the reader's time zone (it names a day, not an instant). */
export function formatCalendarDate(date: string, locale?: string): string {
  const [year, month, day] = date.split('-').map(Number)
  const noonUtc = new Date(Date.UTC(year!, month! - 1, day!, 12))
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(noonUtc)
}

/** "1 Jul 2025, 14:03" for an ISO 8601 instant, in `timeZone` (default: the reader's). */
export function formatTimestamp(timestamp: string, locale?: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(timestamp))
}

/**
 * A recent instant in few characters, in `timeZone`: the time alone when it falls on the reader's today,
 * else day, month and time ("23 Nov, 14:02"), and the year only when it is not this one.
 */
export function formatRecentTimestamp(timestamp: string, locale?: string, timeZone?: string, now = new Date()): string {
  const at = new Date(timestamp)
  const day = (date: Date) => new Intl.DateTimeFormat('en-CA', { dateStyle: 'short', timeZone }).format(date)
  if (day(at) === day(now)) return new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone }).format(at)
  const sameYear = day(at).slice(0, 4) === day(now).slice(0, 4)
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }), hour: '2-digit', minute: '2-digit', timeZone }).format(at)
}
