import { kassa } from '../api/kassa'
import { TIME_ZONE } from '../format/format'

/** A day as yyyy-mm-dd in `timeZone` ('en-CA' writes dates that way). */
function dayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { dateStyle: 'short', timeZone }).format(now)
}

/**
 * Today for a payment from an account no bank connector serves: the API dates those by the UTC calendar
 * (payments/lifecycle/bank-date.ts), so the later of the UTC day and the reader's own — never a day the
 * API would call past, never before the reader's today.
 */
export function calendarToday(now = new Date()): string {
  const utc = dayIn('UTC', now)
  const reader = dayIn(TIME_ZONE, now)
  return reader > utc ? reader : utc
}

/**
 * The sandbox bank's business date (GET /v1/sandbox/clock), which dates payments from its accounts; undefined
 * when the organization has no sandbox bank (the API answers 403) or the clock cannot be read.
 */
export async function sandboxToday(): Promise<string | undefined> {
  try {
    return (await kassa.GET('/v1/sandbox/clock')).data.today
  } catch {
    return undefined
  }
}
