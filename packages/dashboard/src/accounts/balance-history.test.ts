import { describe, expect, it } from 'vitest'
import type { Balance } from './account-types'
import { chartShape, dailyBalances, daysBefore } from './balance-history'

function balance(localDate: string, reportedType: Balance['reportedType'], value: number, overrides: Partial<Balance> = {}): Balance {
  const amount = { currency: 'EUR', value, stringValue: (value / 100).toFixed(2) }
  return { id: `${localDate}-${reportedType}`, organizationId: 'o', accountId: 'a', type: 'BOOKED', reportedType, amount, localDate, timestamp: `${localDate}T23:00:00Z`, version: 1, etag: 'e', ...overrides }
}

describe('dailyBalances: one booked balance per day, oldest first', () => {
  it('takes the closing report of a day over its interim and opening ones, and leaves out available balances', () => {
    const days = dailyBalances([
      balance('2026-11-02', 'INTERIM', 900),
      balance('2026-11-01', 'CLOSE', 500),
      balance('2026-11-01', 'OPEN', 100),
      balance('2026-11-02', 'INTERIM', 700, { timestamp: '2026-11-02T10:00:00Z' }),
      balance('2026-11-03', 'CLOSE', 99_999, { type: 'AVAILABLE' }),
    ])
    expect(days.map((day) => [day.date, day.amount.value])).toEqual([
      ['2026-11-01', 500],
      ['2026-11-02', 900],
    ])
  })
})

describe('chartShape: the line in its box', () => {
  it('puts the lowest balance at the bottom, the highest at the top, and days by their date', () => {
    const days = dailyBalances([balance('2026-11-01', 'CLOSE', 1000), balance('2026-11-02', 'CLOSE', 3000), balance('2026-11-05', 'CLOSE', 2000)])
    const shape = chartShape(days, 300, 100)!
    // Day 1 at x 0, day 2 a quarter of the way (1 of 4 days), day 5 at the end; y grows downwards.
    expect(shape.line).toBe('M0,100 L75,0 L300,50')
    expect(shape.area).toBe('M0,100 L75,0 L300,50 L300,100 L0,100 Z')
    expect([shape.lowest.date, shape.highest.date]).toEqual(['2026-11-01', '2026-11-02'])
  })

  it('draws equal balances, and a single day, as a level line through the middle; nothing for no days', () => {
    expect(chartShape(dailyBalances([balance('2026-11-01', 'CLOSE', 5), balance('2026-11-03', 'CLOSE', 5)]), 200, 80)!.line).toBe('M0,40 L200,40')
    expect(chartShape(dailyBalances([balance('2026-11-01', 'CLOSE', 5)]), 200, 80)!.line).toBe('M0,40 H200')
    expect(chartShape([], 200, 80)).toBeUndefined()
  })

  it('counts calendar days back across months and years', () => {
    expect(daysBefore('2026-03-01', 1)).toBe('2026-02-28')
    expect(daysBefore('2026-01-15', 89)).toBe('2025-10-18')
  })
})
