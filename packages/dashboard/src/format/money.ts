import type { Amount } from '../api/types'

/**
 * Minor units as an exact decimal string ("-150" with 2 decimals is "-1.50"): digits are moved, never
 * divided, so no float ever stands for the amount.
 */
export function minorToDecimal(value: number, decimals: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not an exact amount in minor units: ${value}`)
  const sign = value < 0 ? '-' : ''
  const digits = Math.abs(value).toString().padStart(decimals + 1, '0')
  return decimals === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

/**
 * The amount for people, per currency and locale ("€1,250.00", "1.250,00 €", "¥1,250"). The number of
 * decimals is the currency's minor unit as the server counts it (ISO 4217: EUR 2, JPY 0, KWD 3), read off
 * its stringValue, and every one of them is shown. Intl.NumberFormat is given the decimal as a string,
 * which it formats exactly (ECMA-402: a string is an exact decimal, not converted to a float).
 */
export function formatMoney(amount: Amount, locale?: string): string {
  const decimals = amount.stringValue.split('.')[1]?.length ?? 0
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: amount.currency,
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  })
  return format.format(minorToDecimal(amount.value, decimals) as Intl.StringNumericLiteral)
}
