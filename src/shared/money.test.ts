import { describe, expect, it } from 'vitest'
import { amountFromInput, currencyExponent, formatMinorUnits, parseDecimal, toAmount } from './money.js'

describe('money', () => {
  it('knows ISO 4217 exponents', () => {
    expect(currencyExponent('EUR')).toBe(2)
    expect(currencyExponent('JPY')).toBe(0)
    expect(currencyExponent('KWD')).toBe(3)
    expect(currencyExponent('XXX')).toBeUndefined()
    expect(currencyExponent('ABC')).toBeUndefined()
  })

  it('formats minor units as decimal strings', () => {
    expect(formatMinorUnits(1502, 2)).toBe('15.02')
    expect(formatMinorUnits(-5, 2)).toBe('-0.05')
    expect(formatMinorUnits(0, 2)).toBe('0.00')
    expect(formatMinorUnits(1234, 0)).toBe('1234')
    expect(formatMinorUnits(1, 3)).toBe('0.001')
    expect(toAmount(-125000, 'EUR')).toEqual({ currency: 'EUR', value: -125000, stringValue: '-1250.00' })
  })

  it('parses decimal strings exactly, refusing excess precision', () => {
    expect(parseDecimal('15.02', 2)).toBe(1502)
    expect(parseDecimal('15.1', 2)).toBe(1510)
    expect(parseDecimal('15', 2)).toBe(1500)
    expect(parseDecimal('-0.01', 2)).toBe(-1)
    expect(parseDecimal('15.020', 2)).toBe(1502)
    expect(parseDecimal('15.021', 2)).toBeUndefined()
    expect(parseDecimal('1.5', 0)).toBeUndefined()
    expect(parseDecimal('0.1', 2)).toBe(10)
    expect(parseDecimal('90071992547409.92', 2)).toBeUndefined()
    expect(parseDecimal('abc', 2)).toBeUndefined()
  })

  it('takes value or stringValue, not both or neither', () => {
    expect(amountFromInput({ currency: 'EUR', value: 100 }, 'amount')).toEqual({ currency: 'EUR', value: 100 })
    expect(amountFromInput({ currency: 'JPY', stringValue: '100' }, 'amount')).toEqual({ currency: 'JPY', value: 100 })
    expect(() => amountFromInput({ currency: 'EUR' }, 'amount')).toThrow(/exactly one/)
    expect(() => amountFromInput({ currency: 'EUR', value: 1, stringValue: '0.01' }, 'amount')).toThrow(/exactly one/)
    expect(() => amountFromInput({ currency: 'JPY', stringValue: '1.5' }, 'amount')).toThrow(/at most 0 decimals/)
    expect(() => amountFromInput({ currency: 'QQQ', value: 1 }, 'amount')).toThrow(/ISO 4217/)
  })
})
