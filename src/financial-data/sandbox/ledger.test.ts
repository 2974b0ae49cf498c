import { describe, expect, it } from 'vitest'
import { availableBalance, bookedBalance, bookedReports, ledgerViolations, runningBalances, sumsByDate, type ReportedBalanceView } from './ledger.js'

const start = { openingBalance: 10_000, openingDate: '2025-06-01' }
const entries = [
  { date: '2025-06-01', amount: 500 },
  { date: '2025-06-03', amount: -2_000 },
  { date: '2025-06-03', amount: 250 },
  { date: '2025-06-05', amount: -100 },
]

/** What the bank should report for `entries` with today 2025-06-05 and `reserved` held. */
function correctReports(reserved: number): ReportedBalanceView[] {
  const days = runningBalances(start.openingBalance, sumsByDate(entries), start.openingDate, '2025-06-05')
  return [
    { type: 'BOOKED', reportedType: 'OPEN', localDate: '2025-06-01', amount: 10_000 },
    ...bookedReports(days, '2025-06-05'),
    { type: 'AVAILABLE', reportedType: 'INTERIM', localDate: '2025-06-05', amount: 8_650 - reserved },
  ]
}

describe('ledger', () => {
  it('computes end-of-day balances for every day, quiet days included', () => {
    expect(runningBalances(10_000, sumsByDate(entries), '2025-06-01', '2025-06-05')).toEqual([
      { date: '2025-06-01', balance: 10_500 },
      { date: '2025-06-02', balance: 10_500 },
      { date: '2025-06-03', balance: 8_750 },
      { date: '2025-06-04', balance: 8_750 },
      { date: '2025-06-05', balance: 8_650 },
    ])
    expect(bookedBalance(start, entries, '2025-06-03')).toBe(8_750)
    expect(bookedBalance(start, entries, '2025-05-31')).toBe(10_000)
    expect(availableBalance(8_650, 1_000)).toBe(7_650)
  })

  it('reports CLOSE for past days and INTERIM for today', () => {
    const reports = bookedReports(runningBalances(0, new Map(), '2025-06-01', '2025-06-03'), '2025-06-03')
    expect(reports.map((r) => `${r.reportedType} ${r.localDate}`)).toEqual(['CLOSE 2025-06-01', 'CLOSE 2025-06-02', 'INTERIM 2025-06-03'])
  })

  it('accepts correct books', () => {
    expect(ledgerViolations(start, entries, correctReports(300), '2025-06-05', 300)).toEqual([])
  })

  it('finds every kind of wrong book', () => {
    const reports = correctReports(0)
    const wrongClose = reports.map((r) => (r.localDate === '2025-06-03' ? { ...r, amount: r.amount + 1 } : r))
    expect(ledgerViolations(start, entries, wrongClose, '2025-06-05', 0)).toEqual(['BOOKED CLOSE 2025-06-03 is 8751, the ledger says 8750'])
    const missingDay = reports.filter((r) => r.localDate !== '2025-06-02')
    expect(ledgerViolations(start, entries, missingDay, '2025-06-05', 0)).toEqual(['no BOOKED CLOSE balance for 2025-06-02'])
    expect(ledgerViolations(start, entries, reports, '2025-06-05', 50)).toEqual([
      'AVAILABLE 2025-06-05 is 8650, the ledger says 8650 − 50 reserved',
    ])
    const early = [...entries, { date: '2025-05-30', amount: 1 }]
    expect(ledgerViolations(start, early, reports, '2025-06-05', 0)).toContain('1 entries are dated before the opening date 2025-06-01')
    const wrongOpen = reports.map((r) => (r.reportedType === 'OPEN' ? { ...r, amount: 1 } : r))
    expect(ledgerViolations(start, entries, wrongOpen, '2025-06-05', 0)).toEqual(['BOOKED OPEN 2025-06-01 is 1, the ledger says 10000'])
  })
})
