import { minorToDecimal } from '../format/money'

/**
 * Amounts as people type them, read into integer minor units exactly: the digits are joined and counted,
 * never multiplied or divided as floats, so "0.29" is 29 cents and not 28.999…. The reader's own way of
 * writing numbers is accepted ("1,250.50" in en-GB, "1.250,50" in de-DE, "1 250,50" in fr-FR); anything
 * that could be read two ways (a grouping mark where a decimal one belongs) is refused, not guessed.
 */

/** A locale's decimal and grouping marks. */
export interface NumberMarks {
  decimal: string
  group: string
}

/** The marks of `locale`, as Intl writes 12,345.6 there. */
export function numberMarks(locale?: string): NumberMarks {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6)
  return { decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.', group: parts.find((part) => part.type === 'group')?.value ?? ',' }
}

/** The plain form used in addresses (URLs) and by the API's stringValue: "-1250.50", no grouping. */
export const PLAIN_MARKS: NumberMarks = { decimal: '.', group: '' }

/** The decimals of a currency's minor unit (ISO 4217, as the browser's CLDR data carries it): EUR 2, JPY 0, KWD 3. */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

export type AmountEntry = { ok: true; value: number } | { ok: false; problem: 'empty' | 'format' | 'decimals' | 'too-large' }

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const SPACES = /[ \u00a0\u202f]/g
const IS_SPACE = /^[ \u00a0\u202f]$/

/**
 * `text` in minor units of a currency with `digits` decimals. A minus sign is read only when `signed`
 * (booked transactions are negative for outflows; a payment's amount never is).
 */
export function parseAmountEntry(text: string, digits: number, marks: NumberMarks, options: { signed?: boolean } = {}): AmountEntry {
  let entry = text.trim()
  if (entry === '') return { ok: false, problem: 'empty' }
  // People type a plain space where the locale groups with a no-break space (fr-FR), and ' for ’ (de-CH).
  let group = marks.group
  if (IS_SPACE.test(group)) {
    group = ' '
    entry = entry.replace(SPACES, ' ')
  } else if (group === '\u2019') entry = entry.replace(/'/g, '\u2019')
  const sign = options.signed ? '([-\u2212])?' : '()'
  const grouped = group ? `\\d{1,3}(?:${escape(group)}\\d{3})+|` : ''
  const match = new RegExp(`^${sign}(${grouped}\\d+)(?:${escape(marks.decimal)}(\\d+))?$`).exec(entry)
  if (!match) return { ok: false, problem: 'format' }
  const [, minus, whole = '', fraction = ''] = match
  if (fraction.replace(/0+$/, '').length > digits) return { ok: false, problem: 'decimals' }
  const minor = BigInt(`${whole.split(group || ' ').join('')}${fraction.padEnd(digits, '0').slice(0, digits)}`)
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, problem: 'too-large' }
  const value = Number(minor)
  return { ok: true, value: minus && value !== 0 ? -value : value }
}

/**
 * Amount bounds as an address holds them (plain decimals, "" for none) as the list endpoints take them:
 * amount[gte] and amount[lte] in minor units of a currency with `digits` decimals. A bound that is no
 * amount of that currency is left out.
 */
export function amountBoundsQuery(bounds: { min: string; max: string }, digits: number, options: { signed?: boolean } = {}) {
  const minor = (plain: string) => {
    const entry = parseAmountEntry(plain, digits, PLAIN_MARKS, options)
    return entry.ok ? entry.value : undefined
  }
  const min = minor(bounds.min)
  const max = minor(bounds.max)
  return {
    ...(min !== undefined ? { 'amount[gte]': min } : {}),
    ...(max !== undefined ? { 'amount[lte]': max } : {}),
  }
}

/** Minor units as the reader would type them ("1250,50" in de-DE): what an amount field shows again. */
export function amountEntryText(value: number, digits: number, marks: NumberMarks): string {
  return minorToDecimal(value, digits).replace('.', marks.decimal)
}

/** An amount as the reader writes it, to show how: "1,250.50" (en-GB, 2 decimals), "1.250" (de-DE, none). */
export function amountExample(digits: number, marks: NumberMarks): string {
  return `1${marks.group}250${digits > 0 ? `${marks.decimal}${'5'.padEnd(digits, '0')}` : ''}`
}

/** What was wrong with an entry, in words, with an example in the reader's own writing. */
export function amountProblemText(problem: Exclude<AmountEntry, { ok: true }>['problem'], currency: string, digits: number, marks: NumberMarks): string {
  const example = amountExample(digits, marks)
  switch (problem) {
    case 'empty':
      return 'Enter an amount.'
    case 'decimals':
      return digits === 0 ? `${currency} amounts have no decimals.` : `${currency} amounts have at most ${digits} decimals.`
    case 'too-large':
      return 'This amount is too large.'
    default:
      return `Write the amount as digits, like ${example}.`
  }
}
