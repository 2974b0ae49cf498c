import { formatCalendarDate, formatRecentTimestamp, formatTimestamp } from './dates'
import type { Amount as Money } from '../api/types'
import { formatMoney } from './money'

/**
 * The reader's locale and time zone, as the browser reports them, read once; every amount and date on
 * every page is formatted through the components below.
 */
export const LOCALE = navigator.languages[0] ?? navigator.language
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone

export function Amount({ amount }: { amount: Money }) {
  return <span class="amount">{formatMoney(amount, LOCALE)}</span>
}

export function CalendarDate({ date }: { date: string }) {
  return <time dateTime={date}>{formatCalendarDate(date, LOCALE)}</time>
}

/** An instant in the reader's time zone; `short` drops what the reader knows (today's date, this year). */
export function Timestamp({ at, short = false }: { at: string; short?: boolean }) {
  return (
    <time dateTime={at} title={`${formatTimestamp(at, LOCALE, TIME_ZONE)} (${TIME_ZONE})`}>
      {short ? formatRecentTimestamp(at, LOCALE, TIME_ZONE) : formatTimestamp(at, LOCALE, TIME_ZONE)}
    </time>
  )
}
