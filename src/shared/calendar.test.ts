import { describe, expect, it } from 'vitest'
import {
  addDays,
  businessDayOnOrAfter,
  businessDayOnOrBefore,
  dateOf,
  dayInMonth,
  daysBetween,
  eachDay,
  endOfMonth,
  isBusinessDay,
  isLocalDate,
} from './calendar.js'

describe('calendar', () => {
  it('adds days across months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01')
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01')
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01')
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
    expect(addDays('2025-03-30', 90)).toBe('2025-06-28')
  })

  it('counts days and lists them', () => {
    expect(daysBetween('2025-01-01', '2025-03-01')).toBe(59)
    expect(daysBetween('2025-03-01', '2025-01-01')).toBe(-59)
    expect(eachDay('2025-01-30', '2025-02-02')).toEqual(['2025-01-30', '2025-01-31', '2025-02-01', '2025-02-02'])
    expect(eachDay('2025-02-02', '2025-01-30')).toEqual([])
  })

  it('knows real dates', () => {
    expect(isLocalDate('2024-02-29')).toBe(true)
    expect(isLocalDate('2025-02-29')).toBe(false)
    expect(isLocalDate('2025-13-01')).toBe(false)
    expect(isLocalDate('2025-1-01')).toBe(false)
    expect(() => addDays('tomorrow', 1)).toThrow()
  })

  it('knows business days', () => {
    expect(isBusinessDay('2025-06-13')).toBe(true) // Friday
    expect(isBusinessDay('2025-06-14')).toBe(false)
    expect(isBusinessDay('2025-06-15')).toBe(false)
    expect(businessDayOnOrBefore('2025-05-25')).toBe('2025-05-23')
    expect(businessDayOnOrAfter('2025-05-10')).toBe('2025-05-12')
    expect(businessDayOnOrAfter('2025-05-12')).toBe('2025-05-12')
  })

  it('finds month ends and days in months', () => {
    expect(endOfMonth('2024-02-10')).toBe('2024-02-29')
    expect(endOfMonth('2025-12-03')).toBe('2025-12-31')
    expect(dayInMonth('2025-02-10', 31)).toBe('2025-02-28')
    expect(dayInMonth('2025-04-30', 5)).toBe('2025-04-05')
    expect(dateOf(new Date('2025-06-15T23:59:59.999Z'))).toBe('2025-06-15')
  })
})
