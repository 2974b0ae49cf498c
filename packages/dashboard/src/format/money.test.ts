import { describe, expect, it } from 'vitest'
import { formatMoney, minorToDecimal } from './money'

// Intl puts a no-break space (U+00A0) or narrow no-break space (U+202F) between number and symbol in some locales.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

describe('minorToDecimal: minor units to an exact decimal string', () => {
  it('moves the decimal point by the currency exponent, keeping the sign and leading zeros', () => {
    expect(minorToDecimal(125000, 2)).toBe('1250.00')
    expect(minorToDecimal(5, 2)).toBe('0.05')
    expect(minorToDecimal(-150, 2)).toBe('-1.50')
    expect(minorToDecimal(1250, 0)).toBe('1250')
    expect(minorToDecimal(1, 3)).toBe('0.001')
  })

  it('is exact where a float division is not, up to 2^53 - 1', () => {
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER, 2)).toBe('90071992547409.91')
    // 9007199254740991 / 100 is 90071992547409.9 in floating point: the last cent would be lost.
    expect(String(Number.MAX_SAFE_INTEGER / 100)).toBe('90071992547409.9')
    expect(() => minorToDecimal(2 ** 53, 2)).toThrow(RangeError)
    expect(() => minorToDecimal(1.5, 2)).toThrow(RangeError)
  })
})

describe('formatMoney: per currency and locale', () => {
  it('formats EUR in English and German conventions', () => {
    const amount = { currency: 'EUR', value: 125000, stringValue: '1250.00' }
    expect(formatMoney(amount, 'en-GB')).toBe('€1,250.00')
    expect(plain(formatMoney(amount, 'de-DE'))).toBe('1.250,00 €')
  })

  it('shows as many decimals as the currency has: none for JPY, three for KWD', () => {
    expect(formatMoney({ currency: 'JPY', value: 1250, stringValue: '1250' }, 'en-GB')).toBe('JP¥1,250')
    expect(plain(formatMoney({ currency: 'KWD', value: 1_234_567, stringValue: '1234.567' }, 'en-GB'))).toBe('KWD 1,234.567')
  })

  it('keeps every digit of amounts beyond float precision, and the sign', () => {
    expect(formatMoney({ currency: 'EUR', value: Number.MAX_SAFE_INTEGER, stringValue: '90071992547409.91' }, 'en-GB')).toBe('€90,071,992,547,409.91')
    expect(formatMoney({ currency: 'EUR', value: -150, stringValue: '-1.50' }, 'en-GB')).toBe('-€1.50')
  })
})
