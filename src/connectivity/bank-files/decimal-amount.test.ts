import { describe, expect, it } from 'vitest'
import { decimalSum, decimalText, totalDigits } from './decimal-amount.js'

describe('decimalText', () => {
  it.each([
    [1502n, 2, '15.02'],
    [5n, 2, '0.05'],
    [0n, 2, '0.00'],
    [1502n, 0, '1502'],
    [1502n, 3, '1.502'],
    [1n, 4, '0.0001'],
    [999_999_999_999n, 2, '9999999999.99'],
    [BigInt(Number.MAX_SAFE_INTEGER) * 1000n, 2, '90071992547409910.00'],
  ])('writes %i minor units of %i digits as %s', (minor, exponent, text) => {
    expect(decimalText({ minor, exponent })).toBe(text)
  })
})

describe('decimalSum', () => {
  it('adds amounts of different minor digits at the largest: JPY 100 and EUR 1.50 make 101.50', () => {
    expect(decimalSum([{ minor: 100n, exponent: 0 }, { minor: 150n, exponent: 2 }])).toEqual({ minor: 10150n, exponent: 2 })
  })

  it('adds past 2^53 without losing a unit', () => {
    const largest = { minor: BigInt(Number.MAX_SAFE_INTEGER), exponent: 2 }
    expect(decimalText(decimalSum([largest, largest, { minor: 1n, exponent: 2 }]))).toBe('180143985094819.83')
  })

  it('sums nothing to 0', () => {
    expect(decimalSum([])).toEqual({ minor: 0n, exponent: 0 })
  })
})

describe('totalDigits', () => {
  it.each([
    [5n, 2, 1],
    [150200n, 2, 6],
    [123_456_789_012_345_678n, 2, 18],
  ])('counts %i at %i decimals as %i digits', (minor, exponent, digits) => {
    expect(totalDigits({ minor, exponent })).toBe(digits)
  })
})
