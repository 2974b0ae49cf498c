import { getCountrySpecifications } from 'ibantools'
import { invalidField } from '../../http/errors.js'
import { addDays } from '../../shared/calendar.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { CREDIT_TRANSFER_SCHEMES } from './credit-transfer.schemas.js'

/**
 * The checks a bank would otherwise make days later, made at creation so a payment that cannot
 * be executed is refused at once with the field at fault. Pure functions; unit-tested.
 */

/** reference §2.7: not in the past, at most 60 days ahead — of the bank's business date. Dates are compared as yyyy-mm-dd. */
export const MAX_DAYS_AHEAD = 60

/** The latest date of the last business date asked for: every create asks, with the same date all day (issue 14). */
let latestOf = { today: '', latest: '' }

/** `today` is the business date of the bank holding the own account. @throws ApiError (400, field `date`) */
export function checkExecutionDate(date: string, today: string): void {
  if (date < today) throw invalidField('date', `must not be in the past (the bank's business date is ${today})`)
  if (latestOf.today !== today) latestOf = { today, latest: addDays(today, MAX_DAYS_AHEAD) }
  const { latest } = latestOf
  if (date > latest) throw invalidField('date', `must be at most ${MAX_DAYS_AHEAD} days ahead of the bank's business date ${today} (${latest})`)
}

/** The SEPA (EPC) Latin character set for remittance information. */
const SEPA_CHARACTERS = /^[A-Za-z0-9/\-?:().,'+ ]+$/

/** EPC: an SCT Inst may carry at most 100,000.00 EUR. */
export const SCT_INST_MAX_MINOR_UNITS = 100_000_00

function ibanOf(identifiers: AccountIdentifier[]): string | undefined {
  return identifiers.find((identifier) => identifier.type === 'IBAN')?.number
}

/** The SEPA countries of ibantools' registry, read once: each getCountrySpecifications() call copies every country. */
const SEPA_COUNTRIES: ReadonlySet<string> = new Set(
  Object.entries(getCountrySpecifications())
    .filter(([, specification]) => specification.SEPA === true)
    .map(([country]) => country),
)

function isSepaIban(iban: string): boolean {
  return SEPA_COUNTRIES.has(iban.slice(0, 2))
}

export interface SchemeCheck {
  scheme: string
  currency: string
  amount: number
  reference: string
  sourceIdentifiers: AccountIdentifier[]
  destinationIdentifiers: AccountIdentifier[]
}

/**
 * SEPA schemes (SCT, SCT_INST, SDD_CORE, SDD_B2B): EUR only, IBANs in SEPA countries on both
 * sides, and SEPA characters in the reference.
 * @throws ApiError (400) naming the field at fault.
 */
export function checkSepa(payment: SchemeCheck): void {
  if (payment.currency !== 'EUR') throw invalidField('amount.currency', `${payment.scheme} payments are in EUR only`)
  const sourceIban = ibanOf(payment.sourceIdentifiers)
  if (!sourceIban || !isSepaIban(sourceIban)) throw invalidField('source.id', `${payment.scheme} needs a source account with an IBAN in a SEPA country`)
  const destinationIban = ibanOf(payment.destinationIdentifiers)
  if (!destinationIban || !isSepaIban(destinationIban)) {
    throw invalidField('destination.id', `${payment.scheme} needs a destination account with an IBAN in a SEPA country`)
  }
  if (!SEPA_CHARACTERS.test(payment.reference)) {
    throw invalidField('reference', "may only hold the SEPA characters a-z A-Z 0-9 / - ? : ( ) . , ' + and space")
  }
}

/** A supported credit transfer scheme, its SEPA rules, and the SCT Inst amount ceiling. @throws ApiError (400) */
export function checkScheme(payment: SchemeCheck): void {
  if (!(CREDIT_TRANSFER_SCHEMES as readonly string[]).includes(payment.scheme)) {
    throw invalidField('scheme', `${payment.scheme} is not supported; supported schemes: ${CREDIT_TRANSFER_SCHEMES.join(', ')}`)
  }
  checkSepa(payment)
  if (payment.scheme === 'SCT_INST' && payment.amount > SCT_INST_MAX_MINOR_UNITS) {
    throw invalidField('amount.value', 'SCT_INST payments are limited to 100000.00 EUR')
  }
}

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10)
}
