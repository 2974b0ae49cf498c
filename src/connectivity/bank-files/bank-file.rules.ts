import { currencyExponent } from '../../shared/money.js'
import type { PainVersion } from './bank-file.types.js'
import type { DecimalAmount } from './decimal-amount.js'

/**
 * The limits of the schema types a pain file uses, checked on each value as the writer puts it in its
 * element: the writer is the one place that knows which field goes where, so it is also the one that
 * checks it. Problems are gathered, not thrown one by one, so a caller learns every fault of a batch at
 * once; the writer throws them together (BankFileError) and writes nothing.
 */

export interface BankFileProblem {
  /** Dot path of the input field, e.g. "paymentInformation.0.transactions.3.creditor.name". */
  field: string
  error: string
}

export class BankFileError extends Error {
  constructor(
    readonly messageType: PainVersion,
    readonly problems: BankFileProblem[],
  ) {
    super(`Cannot write ${messageType}: ${problems.map((problem) => `${problem.field} ${problem.error}`).join('; ')}`)
    this.name = 'BankFileError'
  }
}

/**
 * Characters XML 1.0 cannot carry (§2.2 Char: C0 controls, lone surrogates, U+FFFE/U+FFFF), and tab, line
 * feed and carriage return too: every text element of a pain file is a single line, and a parser would
 * turn a carriage return into a line feed (§2.11), so the value would not come back as written.
 */
const NOT_ONE_LINE_OF_XML = /[^\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u

/**
 * EPC rulebooks, "SEPA requirements for an extended character set" and the EPC implementation guidelines'
 * RestrictedIdentificationSEPA1: references (message, payment information, instruction, end-to-end and
 * mandate ids, the creditor identifier) use only these characters, do not start or end with "/" and do
 * not contain "//". Kassa makes these ids itself, so holding them to the strict set costs nothing and
 * they come back unchanged in status reports and statements, whatever the banks in between transliterate.
 */
const SEPA_IDENTIFIER = /^[A-Za-z0-9/\-?:().,'+ ]+$/

const ISO_CODE = /^[A-Z0-9]+$/
const COUNTRY_CODE = /^[A-Z]{2}$/
const CURRENCY_CODE = /^[A-Z]{3}$/
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
/** IBAN2007Identifier, the same in all four versions. */
const IBAN = /^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$/

export class FieldChecks {
  readonly problems: BankFileProblem[] = []
  private readonly seen = new Map<string, Set<string>>()

  fail(field: string, error: string): void {
    this.problems.push({ field, error })
  }

  /**
   * A MaxNText value: 1 to `max` characters, counted as the XSD counts them (Unicode code points, so
   * "€" is one and an emoji is one, though JavaScript's length says 2), all of them writable on one line.
   */
  text(field: string, value: string, max: number): string {
    const length = [...value].length
    if (length === 0) this.fail(field, 'is empty')
    if (length > max) this.fail(field, `has ${length} characters; at most ${max} are allowed`)
    if (NOT_ONE_LINE_OF_XML.test(value)) this.fail(field, 'contains a control character or one XML cannot carry')
    return value
  }

  /** A reference the bank hands back (see SEPA_IDENTIFIER), at most `max` characters. */
  identifier(field: string, value: string, max = 35): string {
    this.text(field, value, max)
    if (value !== '' && !SEPA_IDENTIFIER.test(value)) this.fail(field, "may only contain A-Z a-z 0-9 / - ? : ( ) . , ' + and space")
    if (value.startsWith('/') || value.endsWith('/') || value.includes('//')) this.fail(field, 'must not start or end with "/" or contain "//"')
    return value
  }

  /** A value of a code list (ExternalServiceLevel1Code, ExternalPurpose1Code…): upper-case letters and digits. */
  code(field: string, value: string, max: number): string {
    this.text(field, value, max)
    if (!ISO_CODE.test(value)) this.fail(field, 'must be a code of upper-case letters and digits')
    return value
  }

  /** Unique within the message: two payments with one end-to-end id could not be told apart in a status report. */
  unique(kind: string, field: string, value: string): void {
    const values = this.seen.get(kind) ?? new Set<string>()
    if (values.has(value)) this.fail(field, `repeats ${kind} "${value}" of the same message`)
    this.seen.set(kind, values.add(value))
  }

  /** One of a closed code set (SequenceType1Code, ChargeBearerType1Code…), also when the caller's data escaped its type. */
  oneOf<T extends string>(field: string, value: T, allowed: readonly T[]): T {
    if (!allowed.includes(value)) this.fail(field, `must be one of ${allowed.join(', ')}`)
    return value
  }

  matches(field: string, value: string, pattern: RegExp, what: string): string {
    if (!pattern.test(value)) this.fail(field, `is not ${what}`)
    return value
  }

  iban(field: string, value: string): string {
    return this.matches(field, value, IBAN, 'an IBAN in electronic format (upper case, no spaces)')
  }

  country(field: string, value: string): string {
    return this.matches(field, value, COUNTRY_CODE, 'an ISO 3166 alpha-2 country code')
  }

  /** ISODate: a calendar date, yyyy-mm-dd, written without a time zone. */
  date(field: string, value: string): string {
    const match = ISO_DATE.exec(value)
    const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined
    if (!match || date!.toISOString().slice(0, 10) !== value) this.fail(field, 'is not a calendar date (yyyy-mm-dd)')
    return value
  }

  /** ISODateTime in UTC to the second: "2026-03-02T09:30:00Z". */
  dateTime(field: string, value: Date): string {
    if (Number.isNaN(value.getTime())) {
      this.fail(field, 'is not a valid date-time')
      return ''
    }
    return value.toISOString().replace(/\.\d{3}Z$/, 'Z')
  }

  /** A currency of ISO 4217 that has minor digits (not XAU, XXX…). */
  currency(field: string, value: string): string {
    this.minorDigits(field, value)
    return value
  }

  /** A positive whole number of the currency's minor units, which the XML writes as a decimal. */
  amount(field: string, value: number, currency: string): DecimalAmount {
    const exponent = this.minorDigits(`${field}.currency`, currency)
    if (!Number.isSafeInteger(value) || value <= 0) this.fail(`${field}.value`, 'must be a positive whole number of minor units below 2^53')
    return { minor: Number.isSafeInteger(value) ? BigInt(value) : 0n, exponent: exponent ?? 0 }
  }

  private minorDigits(field: string, currency: string): number | undefined {
    const exponent = CURRENCY_CODE.test(currency) ? currencyExponent(currency) : undefined
    if (exponent === undefined) this.fail(field, 'is not an ISO 4217 currency')
    return exponent
  }
}
