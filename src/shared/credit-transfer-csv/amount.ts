import { currencyExponent, parseDecimal } from '../money.js'

/**
 * A decimal amount as people write it ("1250.00", "0.5", "7") in minor units of `currency`, exactly:
 * the digits are shifted by the ISO 4217 exponent, never multiplied as a float (shared/money.ts).
 * @throws Error saying what is wrong with the amount or the currency.
 */
export function minorUnits(amount: string, currency: string): { currency: string; value: number } {
  const exponent = currencyExponent(currency)
  if (exponent === undefined) throw new Error(`currency "${currency}" is not an ISO 4217 currency code such as EUR`)
  if (!/^-?\d+(\.\d+)?$/.test(amount.trim())) throw new Error(`amount "${amount}" is not a decimal number such as 1250.00 (a point, no thousands separators)`)
  const value = parseDecimal(amount, exponent)
  if (value === undefined) throw new Error(`amount "${amount}" has more than ${exponent} decimals for ${currency}, or is too large`)
  return { currency, value }
}
