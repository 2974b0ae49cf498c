import { describe, expect, it } from 'vitest'
import { formatCalendarDate, formatRecentTimestamp, formatTimestamp } from './dates'

describe('dates', () => {
  it('shows a calendar date as the same day in every time zone', () => {
    expect(formatCalendarDate('2025-07-01', 'en-GB')).toBe('1 Jul 2025')
    expect(formatCalendarDate('2025-12-31', 'de-DE')).toBe('31.12.2025')
  })

  it("shows an instant in the reader's time zone", () => {
    expect(formatTimestamp('2025-07-01T22:30:00Z', 'en-GB', 'Europe/Berlin')).toBe('2 Jul 2025, 00:30')
    expect(formatTimestamp('2025-07-01T22:30:00Z', 'en-GB', 'America/New_York')).toBe('1 Jul 2025, 18:30')
  })

  it("shortens a recent instant: the time alone on the reader's today, no year within this one", () => {
    const now = new Date('2025-07-02T08:00:00Z')
    expect(formatRecentTimestamp('2025-07-01T22:30:00Z', 'en-GB', 'Europe/Berlin', now)).toBe('00:30')
    expect(formatRecentTimestamp('2025-07-01T22:30:00Z', 'en-GB', 'America/New_York', now)).toBe('1 Jul, 18:30')
    expect(formatRecentTimestamp('2024-12-31T10:00:00Z', 'en-GB', 'UTC', now)).toBe('31 Dec 2024, 10:00')
  })
})
