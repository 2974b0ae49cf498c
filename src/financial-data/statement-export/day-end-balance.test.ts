import { describe, expect, it } from 'vitest'
import { balanceAtEndOf, dayEndOf, nearer, type BookedSum } from './day-end-balance.js'

/** Bookings of 10 on 03-01, 20 on 03-02, -5 on 03-03, as the repository would sum them. */
const booked: Record<string, number> = { '2026-03-01': 10, '2026-03-02': 20, '2026-03-03': -5 }
const bookedSum: BookedSum = async (after, through) =>
  Object.entries(booked)
    .filter(([date]) => (after === undefined || date > after) && (through === undefined || date <= through))
    .reduce((sum, [, amount]) => sum + amount, 0)

describe('dayEndOf', () => {
  it('takes a CLOSE as the end of its day and an OPEN as the end of the day before', () => {
    expect(dayEndOf({ reportedType: 'CLOSE', localDate: '2026-03-01', amount: 7 })).toEqual({ endOf: '2026-03-01', amount: 7 })
    expect(dayEndOf({ reportedType: 'OPEN', localDate: '2026-03-01', amount: 7 })).toEqual({ endOf: '2026-02-28', amount: 7 })
  })
})

describe('balanceAtEndOf', () => {
  it('is the reported day-end of that very day', async () => {
    expect(await balanceAtEndOf('2026-03-02', { endOf: '2026-03-02', amount: 999 }, undefined, bookedSum)).toBe(999)
  })

  it('adds what was booked after the latest day-end before', async () => {
    expect(await balanceAtEndOf('2026-03-03', { endOf: '2026-03-01', amount: 100 }, undefined, bookedSum)).toBe(115)
  })

  it('subtracts what was booked up to the earliest day-end after when there is none before', async () => {
    expect(await balanceAtEndOf('2026-03-01', undefined, { endOf: '2026-03-03', amount: 100 }, bookedSum)).toBe(85)
  })

  it('sums every booking through the day when no balance was ever reported', async () => {
    expect(await balanceAtEndOf('2026-03-02', undefined, undefined, bookedSum)).toBe(30)
  })
})

describe('nearer', () => {
  const close = { endOf: '2026-03-02', amount: 1 }
  const open = { endOf: '2026-03-01', amount: 2 }
  it('picks the later or the earlier, the first given on a tie, and either when one is missing', () => {
    expect(nearer(close, open, true)).toBe(close)
    expect(nearer(close, open, false)).toBe(open)
    expect(nearer(close, { ...close, amount: 3 }, true)).toBe(close)
    expect(nearer(undefined, open, true)).toBe(open)
  })
})
