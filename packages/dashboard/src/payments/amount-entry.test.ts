import { describe, expect, it } from 'vitest'
import { amountBoundsQuery, amountEntryText, amountProblemText, currencyDigits, numberMarks, parseAmountEntry, PLAIN_MARKS } from './amount-entry'

const en = numberMarks('en-GB')
const de = numberMarks('de-DE')
const fr = numberMarks('fr-FR')

describe('parseAmountEntry: what a person types, in exact minor units', () => {
  it("reads the reader's own decimal and grouping marks", () => {
    expect(en).toEqual({ decimal: '.', group: ',' })
    expect(de).toEqual({ decimal: ',', group: '.' })
    expect(parseAmountEntry('1,250.50', 2, en)).toEqual({ ok: true, value: 125050 })
    expect(parseAmountEntry('1250.5', 2, en)).toEqual({ ok: true, value: 125050 })
    expect(parseAmountEntry('1.250,50', 2, de)).toEqual({ ok: true, value: 125050 })
    expect(parseAmountEntry(' 1250 ', 2, de)).toEqual({ ok: true, value: 125000 })
    // fr-FR groups with a narrow no-break space; people type a plain one.
    expect(parseAmountEntry('1 250,50', 2, fr)).toEqual({ ok: true, value: 125050 })
    expect(parseAmountEntry('2\u202f000', 0, fr)).toEqual({ ok: true, value: 2000 })
  })

  it('is exact where floating point is not', () => {
    // 0.29 * 100 is 28.999999999999996 in floating point, 1.15 * 100 is 114.99999999999999.
    expect(0.29 * 100).not.toBe(29)
    expect(parseAmountEntry('0.29', 2, en)).toEqual({ ok: true, value: 29 })
    expect(parseAmountEntry('1.15', 2, en)).toEqual({ ok: true, value: 115 })
    // Math.round(45035996273704.02 * 100) is 4503599627370403: even rounding the float loses the cent.
    expect(parseAmountEntry('45035996273704.02', 2, en)).toEqual({ ok: true, value: 4503599627370402 })
    expect(parseAmountEntry('90071992547409.91', 2, en)).toEqual({ ok: true, value: Number.MAX_SAFE_INTEGER })
    expect(parseAmountEntry('90071992547409.92', 2, en)).toEqual({ ok: false, problem: 'too-large' })
  })

  it("counts the currency's decimals: none for JPY, three for KWD, trailing zeros allowed", () => {
    expect(currencyDigits('EUR')).toBe(2)
    expect(currencyDigits('JPY')).toBe(0)
    expect(currencyDigits('KWD')).toBe(3)
    expect(parseAmountEntry('1250', 0, en)).toEqual({ ok: true, value: 1250 })
    expect(parseAmountEntry('1250.5', 0, en)).toEqual({ ok: false, problem: 'decimals' })
    expect(parseAmountEntry('1.234', 3, en)).toEqual({ ok: true, value: 1234 })
    expect(parseAmountEntry('12.340', 2, en)).toEqual({ ok: true, value: 1234 })
    expect(parseAmountEntry('12.345', 2, en)).toEqual({ ok: false, problem: 'decimals' })
  })

  it('refuses what could be read two ways, or is no amount', () => {
    // In de-DE "1250.50" would be 125050 euros if the dot were read as grouping: it is refused instead.
    expect(parseAmountEntry('1250.50', 2, de)).toEqual({ ok: false, problem: 'format' })
    expect(parseAmountEntry('1,25,0.00', 2, en)).toEqual({ ok: false, problem: 'format' })
    for (const text of ['12a', '.5', '5.', '1e3', '-5', '+5', '€5']) expect(parseAmountEntry(text, 2, en), text).toEqual({ ok: false, problem: 'format' })
    expect(parseAmountEntry('  ', 2, en)).toEqual({ ok: false, problem: 'empty' })
  })

  it('reads a minus sign only where amounts are signed', () => {
    expect(parseAmountEntry('-1,250.50', 2, en, { signed: true })).toEqual({ ok: true, value: -125050 })
    expect(parseAmountEntry('\u2212100', 2, en, { signed: true })).toEqual({ ok: true, value: -10000 })
    expect(parseAmountEntry('-0', 2, en, { signed: true })).toEqual({ ok: true, value: 0 })
  })

  it('reads and writes the plain form kept in addresses, without grouping', () => {
    expect(parseAmountEntry('-1250.50', 2, PLAIN_MARKS, { signed: true })).toEqual({ ok: true, value: -125050 })
    expect(parseAmountEntry('1,250.50', 2, PLAIN_MARKS)).toEqual({ ok: false, problem: 'format' })
    expect(amountEntryText(-125050, 2, PLAIN_MARKS)).toBe('-1250.50')
    expect(amountEntryText(125050, 2, de)).toBe('1250,50')
  })
})

describe('amountProblemText', () => {
  it("explains with an example in the reader's writing", () => {
    expect(amountProblemText('format', 'EUR', 2, de)).toBe('Write the amount as digits, like 1.250,50.')
    expect(amountProblemText('decimals', 'EUR', 2, en)).toBe('EUR amounts have at most 2 decimals.')
    expect(amountProblemText('decimals', 'JPY', 0, en)).toBe('JPY amounts have no decimals.')
  })
})

describe('amountBoundsQuery: bounds from the address as the list endpoints take them', () => {
  it('gives each bound in minor units of the currency, and leaves out what is empty or no amount of it', () => {
    expect(amountBoundsQuery({ min: '100', max: '1250.50' }, 2)).toEqual({ 'amount[gte]': 100_00, 'amount[lte]': 1_250_50 })
    expect(amountBoundsQuery({ min: '100', max: '' }, 0)).toEqual({ 'amount[gte]': 100 })
    expect(amountBoundsQuery({ min: '', max: '' }, 2)).toEqual({})
    // 100.50 is no JPY amount; "1,250" is not the plain form an address holds.
    expect(amountBoundsQuery({ min: '100.50', max: '1,250' }, 0)).toEqual({})
  })

  it('reads a minus sign only where amounts are signed', () => {
    expect(amountBoundsQuery({ min: '-1250.50', max: '-0.01' }, 2, { signed: true })).toEqual({ 'amount[gte]': -1_250_50, 'amount[lte]': -1 })
    expect(amountBoundsQuery({ min: '-1250.50', max: '' }, 2)).toEqual({})
  })
})
