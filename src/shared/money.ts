import currencyCodes from 'currency-codes'
import { Type, type Static } from 'typebox'
import { invalidField } from '../http/errors.js'
import { CurrencyCode } from './common.schemas.js'

/**
 * Money is an integer count of the currency's minor units (ISO 4217 exponent: EUR 2, JPY 0,
 * KWD 3), never a float. `stringValue` is the same amount as a plain decimal string.
 */
export const Amount = Type.Object({
  currency: CurrencyCode,
  value: Type.Integer({ description: 'Minor units of the currency; negative for outflows on transactions' }),
  stringValue: Type.String({ description: 'The amount as a decimal string, e.g. "15.02"' }),
})
export type Amount = Static<typeof Amount>

export const AmountInput = Type.Object(
  {
    currency: CurrencyCode,
    value: Type.Optional(Type.Integer({ description: 'Minor units; give this or stringValue' })),
    stringValue: Type.Optional(Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', description: 'Decimal string; give this or value' })),
  },
  { additionalProperties: false },
)
export type AmountInput = Static<typeof AmountInput>

/**
 * A list filter's bound in minor units (`amount[gte]`, `amount[lte]`): within ±(2^53 − 1), like every
 * stored amount, so it compares exactly on both backends (beyond, PostgreSQL refused the bigint).
 */
export function MinorUnitsBound(description: string, minimum = -Number.MAX_SAFE_INTEGER) {
  return Type.Integer({ minimum, maximum: Number.MAX_SAFE_INTEGER, description })
}

/** Minor-unit exponent of an ISO 4217 currency; undefined for unknown codes and for X-codes that are no currency (XXX, XAU…). */
export function currencyExponent(currency: string): number | undefined {
  const entry = currencyCodes.code(currency)
  if (!entry || currency.startsWith('X')) return undefined
  return entry.digits
}

export function isCurrency(currency: string): boolean {
  return currencyExponent(currency) !== undefined
}

export function formatMinorUnits(value: number, exponent: number): string {
  const sign = value < 0 ? '-' : ''
  const digits = Math.abs(value).toString().padStart(exponent + 1, '0')
  return exponent === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

export function toAmount(value: number, currency: string): Amount {
  return { currency, value, stringValue: formatMinorUnits(value, currencyExponent(currency) ?? 2) }
}

/**
 * A decimal string in minor units, exactly (no float arithmetic): "15.02" EUR → 1502.
 * @returns undefined when it has more decimals than the currency allows or exceeds 2^53.
 */
export function parseDecimal(text: string, exponent: number): number | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!match) return undefined
  const [, sign, whole, fraction = ''] = match
  const significant = fraction.replace(/0+$/, '')
  if (significant.length > exponent) return undefined
  const minor = BigInt(`${whole}${fraction.padEnd(exponent, '0').slice(0, exponent)}`)
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return undefined
  const value = Number(minor)
  return sign === '-' && value !== 0 ? -value : value
}

/**
 * Resolves `{currency, value}` or `{currency, stringValue}` to minor units.
 * @throws ApiError invalid_request (400) naming `field` for an unknown currency, both or neither of
 * value/stringValue, or more decimals than the currency has.
 */
export function amountFromInput(input: AmountInput, field: string): { currency: string; value: number } {
  const exponent = currencyExponent(input.currency)
  if (exponent === undefined) throw invalidField(`${field}.currency`, `${input.currency} is not an ISO 4217 currency`)
  if ((input.value === undefined) === (input.stringValue === undefined)) {
    throw invalidField(field, 'give exactly one of value (minor units) and stringValue (decimal)')
  }
  if (input.value !== undefined) {
    if (!Number.isSafeInteger(input.value)) throw invalidField(`${field}.value`, 'is too large')
    return { currency: input.currency, value: input.value }
  }
  const value = parseDecimal(input.stringValue!, exponent)
  if (value === undefined) {
    throw invalidField(`${field}.stringValue`, `must have at most ${exponent} decimals for ${input.currency} and fit in 2^53 minor units`)
  }
  return { currency: input.currency, value }
}
