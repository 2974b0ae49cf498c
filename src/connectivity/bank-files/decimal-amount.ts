/**
 * Amounts as pain files write them: decimal text with exactly the currency's ISO 4217 minor digits
 * (EUR "15.02", JPY "1502", KWD "1.502"), computed from integer minor units without floating point.
 * BigInt rather than money.ts's number-based formatMinorUnits: one amount fits in 2^53, but a control sum
 * of many may not, and the schema lets CtrlSum have 18 digits.
 */

/** `minor` units of a currency with `exponent` minor digits: 1502n and 2 are 15.02. */
export interface DecimalAmount {
  minor: bigint
  exponent: number
}

/** ActiveOrHistoricCurrencyAndAmount and DecimalNumber (CtrlSum) both allow at most 18 digits (totalDigits). */
export const MAX_TOTAL_DIGITS = 18

export function decimalText({ minor, exponent }: DecimalAmount): string {
  if (exponent === 0) return minor.toString()
  const scale = 10n ** BigInt(exponent)
  return `${minor / scale}.${(minor % scale).toString().padStart(exponent, '0')}`
}

/**
 * The CtrlSum of amounts: their plain decimal sum "irrespective of currencies" (the ISO 20022 definition
 * of ControlSum), so JPY 100 and EUR 1.50 sum to 101.50. Each amount is scaled to the largest exponent
 * among them and added as an integer; no amounts sum to 0 at exponent 0.
 */
export function decimalSum(amounts: readonly DecimalAmount[]): DecimalAmount {
  const exponent = Math.max(0, ...amounts.map((amount) => amount.exponent))
  const minor = amounts.reduce((sum, amount) => sum + amount.minor * 10n ** BigInt(exponent - amount.exponent), 0n)
  return { minor, exponent }
}

/**
 * Digits as written, less leading zeros: at least what xs:decimal's totalDigits counts (it leaves out
 * trailing zeros of the fraction too), so a value within the limit here is within the schema's.
 */
export function totalDigits(amount: DecimalAmount): number {
  return decimalText(amount).replace('.', '').replace(/^0+(?=\d)/, '').length
}
