import { ApiError, type ErrorDetail } from '../../http/errors.js'
import { currencyExponent, parseDecimal } from '../../shared/money.js'
import type { ReportedBalance } from '../bookings/booking.service.js'
import type { DateSource } from '../transactions/transaction.schemas.js'
import type { CamtBalance, CamtEntry, CamtMessage, CamtStatement } from './camt-model.js'
import type { PlannedBalance } from './statement.validation.js'

/**
 * The rules of statement.validation.ts, each check of one value: problems are collected (up to
 * MAX_DETAILS) with the path of the element at fault ("Stmt[1].Ntry[3].Amt") and its line.
 */

const MAX_DETAILS = 50

/** Balance type codes Kassa records, and as what. PRCD is the previous statement's closing balance. */
const BALANCE_TYPES: Record<string, Pick<ReportedBalance, 'type' | 'reportedType'>> = {
  OPBD: { type: 'BOOKED', reportedType: 'OPEN' },
  CLBD: { type: 'BOOKED', reportedType: 'CLOSE' },
  ITBD: { type: 'BOOKED', reportedType: 'INTERIM' },
  PRCD: { type: 'BOOKED', reportedType: 'CLOSE' },
  OPAV: { type: 'AVAILABLE', reportedType: 'OPEN' },
  CLAV: { type: 'AVAILABLE', reportedType: 'CLOSE' },
  ITAV: { type: 'AVAILABLE', reportedType: 'INTERIM' },
}

export const NOT_BOOKED_STATUSES = new Set(['PDNG', 'INFO', 'FUTR'])

export class Problems {
  readonly details: ErrorDetail[] = []
  total = 0
  constructor(readonly lineOf: CamtMessage['lineOf']) {}

  add(code: string, field: string, error: string, offset?: number): void {
    this.total += 1
    if (this.details.length >= MAX_DETAILS) return
    const position = this.lineOf(offset)
    this.details.push({ code, field, error: position ? `${error} (line ${position.line})` : error })
  }

  throwIfAny(): void {
    if (this.total === 0) return
    const [first] = this.details
    const more = this.total > 1 ? ` (and ${this.total - 1} more problem${this.total > 2 ? 's' : ''})` : ''
    throw new ApiError('invalid_request', `The statement file was rejected: ${first!.field}: ${first!.error}${more}`, this.details)
  }
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** Dates seen valid: a statement repeats a handful of dates over thousands of entries. */
const validDates = new Set<string>()

export function isDate(value: string | undefined): value is string {
  if (value === undefined) return false
  if (validDates.has(value)) return true
  if (!ISO_DATE.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(value)) return false
  if (validDates.size > 10_000) validDates.clear()
  validDates.add(value)
  return true
}

/**
 * What the amounts of one statement are checked against. Its entries are checked whether or not it
 * names an account of the organization, so that a file's real faults are reported beside the account
 * rule rather than hidden by it (issue 12).
 */
export interface StatementContext {
  /** The statement's currency: its Acct/Ccy, else its account's, else that of its first amount. */
  currency?: string
  /** Whose currency that is, for a mismatch: "account …" or "statement …". */
  currencyOf: string
  exponent: number
  problems: Problems
}

export function statementContext(currency: string | undefined, currencyOf: string, problems: Problems): StatementContext {
  if (currency === undefined) return { currencyOf, exponent: 2, problems }
  return { currency, currencyOf, exponent: currencyExponent(currency) ?? 2, problems }
}

/** Checks an amount and its CdtDbtInd, reporting what is wrong; returns signed minor units. */
export function checkedAmount(context: StatementContext, path: string, offset: number | undefined, amount: CamtEntry['amount'], creditDebit: string | undefined): number | undefined {
  const { problems } = context
  if (!amount) return problems.add('required', `${path}.Amt`, 'is required', offset), undefined
  if (amount.currency === undefined) return problems.add('required', `${path}.Amt`, 'needs its Ccy attribute', offset), undefined
  if (context.currency === undefined) {
    // A statement that names neither its currency nor a known account is in the currency of its first amount.
    context.currency = amount.currency
    context.exponent = currencyExponent(amount.currency) ?? 2
  }
  const { currency, exponent } = context
  if (amount.currency !== currency) {
    return problems.add('currency_mismatch', `${path}.Amt`, `is in ${amount.currency}, but ${context.currencyOf} is in ${currency}`, offset), undefined
  }
  const value = /^\d+(\.\d+)?$/.test(amount.value) ? parseDecimal(amount.value, exponent) : undefined
  if (value === undefined) {
    problems.add('invalid_value', `${path}.Amt`, `'${amount.value}' is not a non-negative amount with at most ${exponent} decimals for ${currency}`, offset)
  }
  if (creditDebit !== 'CRDT' && creditDebit !== 'DBIT') {
    problems.add('invalid_value', `${path}.CdtDbtInd`, creditDebit === undefined ? 'is required (CRDT or DBIT)' : `must be CRDT or DBIT, not '${creditDebit}'`, offset)
    return undefined
  }
  return value === undefined ? undefined : creditDebit === 'DBIT' ? -value : value
}

export function planBalance(context: StatementContext, balance: CamtBalance): (PlannedBalance & { path: string }) | undefined {
  const mapping = balance.code !== undefined ? BALANCE_TYPES[balance.code] : undefined
  if (!mapping) return undefined
  const amount = checkedAmount(context, balance.path, balance.offset, balance.amount, balance.creditDebit)
  if (!isDate(balance.date)) {
    context.problems.add('invalid_value', `${balance.path}.Dt`, balance.date === undefined ? 'is required' : `'${balance.date}' is not a date`, balance.offset)
    return undefined
  }
  return amount === undefined ? undefined : { ...mapping, code: balance.code!, amount, localDate: balance.date, path: balance.path }
}

/** The statement's own date: the last day of its period (FrToDt), else the day it was created (CreDtTm). */
export function statementDateOf(statement: Pick<CamtStatement, 'period' | 'creationDate'>): string | undefined {
  return [statement.period?.to, statement.creationDate].find(isDate)
}

export interface EntryDates {
  date: string
  valueDate: string
  /** Absent when `date` is the entry's BookgDt. */
  dateSource?: DateSource
}

/**
 * The dates of a booked entry. Its booking date is BookgDt; the schema makes it optional, and a
 * booked entry without one is booked on its value date (ValDt), else on the statement's date, and its
 * transaction says which (dateSource).
 */
export function entryDatesOf(entry: CamtEntry, statementDate: string | undefined, problems: Problems): EntryDates | undefined {
  const { path, offset, bookingDate, valueDate } = entry
  const problemsBefore = problems.total
  if (bookingDate !== undefined && !isDate(bookingDate)) problems.add('invalid_value', `${path}.BookgDt`, `'${bookingDate}' is not a date`, offset)
  if (valueDate !== undefined && !isDate(valueDate)) problems.add('invalid_value', `${path}.ValDt`, `'${valueDate}' is not a date`, offset)
  if (problems.total !== problemsBefore) return undefined
  if (bookingDate !== undefined) return { date: bookingDate, valueDate: valueDate ?? bookingDate }
  if (valueDate !== undefined) return { date: valueDate, valueDate, dateSource: 'VALUE_DATE' }
  if (statementDate !== undefined) return { date: statementDate, valueDate: statementDate, dateSource: 'STATEMENT_DATE' }
  problems.add('required', `${path}.BookgDt`, 'is required for a booked entry without a value date (ValDt) in a statement that gives no date (FrToDt, CreDtTm)', offset)
  return undefined
}
