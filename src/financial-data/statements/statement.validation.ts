import type { AccountsTable } from '../../db/schema.js'
import { ApiError, type ErrorDetail } from '../../http/errors.js'
import { currencyExponent, formatMinorUnits, parseDecimal } from '../../shared/money.js'
import type { BookedEntry, ReportedBalance } from '../bookings/booking.service.js'
import type { CamtBalance, CamtEntry, CamtMessage, CamtStatement } from './camt-model.js'
import { bookedEntriesOf, entryReferenceOf, normalizeIban } from './statement-entries.js'

/**
 * The rules a statement file must pass before anything of it is written, and its translation into
 * what the bookings interface stores (entries: statement-entries.ts). Every problem found is reported
 * (up to MAX_DETAILS), each with the path of the element at fault ("Stmt[1].Ntry[3].Amt") and its line.
 */

const MAX_DETAILS = 50

export type StatementAccount = Pick<AccountsTable, 'id' | 'organization_id' | 'currency'>

export interface PlannedBalance extends ReportedBalance {
  /** The ISO 20022 balance type code it came from (OPBD, CLBD, …). */
  code: string
}

export interface StatementPlan {
  statementId: string
  electronicSequenceNumber?: string
  iban: string
  account: StatementAccount
  entriesFound: number
  entriesNotBooked: number
  entries: BookedEntry[]
  balances: PlannedBalance[]
}

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

const NOT_BOOKED_STATUSES = new Set(['PDNG', 'INFO', 'FUTR'])

class Problems {
  readonly details: ErrorDetail[] = []
  total = 0
  constructor(private readonly message: CamtMessage) {}

  add(code: string, field: string, error: string, offset?: number): void {
    this.total += 1
    if (this.details.length >= MAX_DETAILS) return
    const position = this.message.lineOf(offset)
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

function isDate(value: string | undefined): value is string {
  if (value === undefined) return false
  if (validDates.has(value)) return true
  if (!ISO_DATE.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  if (Number.isNaN(date.getTime()) || !date.toISOString().startsWith(value)) return false
  if (validDates.size > 10_000) validDates.clear()
  validDates.add(value)
  return true
}

interface StatementContext {
  statement: CamtStatement
  account: StatementAccount
  exponent: number
  problems: Problems
}

/** Checks an amount and its CdtDbtInd, reporting what is wrong; returns signed minor units. */
function checkedAmount(context: StatementContext, path: string, offset: number | undefined, amount: CamtEntry['amount'], creditDebit: string | undefined): number | undefined {
  const { account, exponent, problems } = context
  if (!amount) return problems.add('required', `${path}.Amt`, 'is required', offset), undefined
  if (amount.currency === undefined) return problems.add('required', `${path}.Amt`, 'needs its Ccy attribute', offset), undefined
  if (amount.currency !== account.currency) {
    return problems.add('currency_mismatch', `${path}.Amt`, `is in ${amount.currency}, but account ${account.id} is in ${account.currency}`, offset), undefined
  }
  const value = /^\d+(\.\d+)?$/.test(amount.value) ? parseDecimal(amount.value, exponent) : undefined
  if (value === undefined) {
    problems.add('invalid_value', `${path}.Amt`, `'${amount.value}' is not a non-negative amount with at most ${exponent} decimals for ${account.currency}`, offset)
  }
  if (creditDebit !== 'CRDT' && creditDebit !== 'DBIT') {
    problems.add('invalid_value', `${path}.CdtDbtInd`, creditDebit === undefined ? 'is required (CRDT or DBIT)' : `must be CRDT or DBIT, not '${creditDebit}'`, offset)
    return undefined
  }
  return value === undefined ? undefined : creditDebit === 'DBIT' ? -value : value
}

function planBalance(context: StatementContext, balance: CamtBalance): (PlannedBalance & { path: string }) | undefined {
  const mapping = balance.code !== undefined ? BALANCE_TYPES[balance.code] : undefined
  if (!mapping) return undefined
  const amount = checkedAmount(context, balance.path, balance.offset, balance.amount, balance.creditDebit)
  if (!isDate(balance.date)) {
    context.problems.add('invalid_value', `${balance.path}.Dt`, balance.date === undefined ? 'is required' : `'${balance.date}' is not a date`, balance.offset)
    return undefined
  }
  return amount === undefined ? undefined : { ...mapping, code: balance.code!, amount, localDate: balance.date, path: balance.path }
}

function planStatement(statement: CamtStatement, accounts: ReadonlyMap<string, StatementAccount[]>, problems: Problems): StatementPlan | undefined {
  const { path, offset } = statement
  const problemsBefore = problems.total
  if (statement.id === undefined) problems.add('required', `${path}.Id`, 'is required', offset)
  const name = statement.id ?? path
  if (statement.account.iban === undefined) {
    const other = statement.account.otherId !== undefined ? ` (it names account ${statement.account.otherId})` : ''
    problems.add('required', `${path}.Acct.Id.IBAN`, `is required: Kassa matches statements to accounts by IBAN${other}`, offset)
    return undefined
  }
  const iban = normalizeIban(statement.account.iban)
  const matches = accounts.get(iban) ?? []
  if (matches.length !== 1) {
    const error = matches.length === 0 ? `no account with IBAN ${iban} in this organization (statement ${name})` : `several accounts have IBAN ${iban} (statement ${name})`
    problems.add(matches.length === 0 ? 'unknown_account' : 'ambiguous_account', `${path}.Acct.Id.IBAN`, error, offset)
    return undefined
  }
  const account = matches[0]!
  if (statement.account.currency !== undefined && statement.account.currency !== account.currency) {
    problems.add('currency_mismatch', `${path}.Acct.Ccy`, `statement ${name} is in ${statement.account.currency}, but account ${account.id} (${iban}) is in ${account.currency}`, offset)
    return undefined
  }
  const exponent = currencyExponent(account.currency) ?? 2
  const context: StatementContext = { statement, account, exponent, problems }

  const entries: BookedEntry[] = []
  const referencedAt = new Map<string, string>()
  const occurrences = new Map<string, number>()
  let bookedSum = 0
  let notBooked = 0
  for (const entry of statement.entries) {
    if (entry.status !== undefined && NOT_BOOKED_STATUSES.has(entry.status)) {
      notBooked += 1
      continue
    }
    if (entry.status !== 'BOOK') {
      problems.add('invalid_value', `${entry.path}.Sts`, entry.status === undefined ? 'is required' : `'${entry.status}' is not an entry status (BOOK, PDNG, INFO)`, entry.offset)
      continue
    }
    const amount = checkedAmount(context, entry.path, entry.offset, entry.amount, entry.creditDebit)
    if (!isDate(entry.bookingDate)) {
      problems.add('invalid_value', `${entry.path}.BookgDt`, entry.bookingDate === undefined ? 'is required for a booked entry' : `'${entry.bookingDate}' is not a date`, entry.offset)
      continue
    }
    if (entry.valueDate !== undefined && !isDate(entry.valueDate)) {
      problems.add('invalid_value', `${entry.path}.ValDt`, `'${entry.valueDate}' is not a date`, entry.offset)
      continue
    }
    if (amount === undefined) continue
    bookedSum += amount
    const reference = entryReferenceOf(entry, amount, occurrences)
    const earlier = referencedAt.get(reference)
    if (earlier !== undefined) {
      problems.add('duplicate_reference', entry.path, `repeats the entry reference ${reference} of ${earlier} in statement ${name}`, entry.offset)
      continue
    }
    referencedAt.set(reference, entry.path)
    entries.push(...bookedEntriesOf(entry, amount, reference, account.currency, exponent))
  }

  const planned = statement.balances.map((balance) => planBalance(context, balance)).filter((balance) => balance !== undefined)
  const opening = planned.find((balance) => balance.code === 'OPBD') ?? planned.find((balance) => balance.code === 'PRCD')
  const closing = planned.find((balance) => balance.code === 'CLBD')
  if (opening && closing && problems.total === problemsBefore && opening.amount + bookedSum !== closing.amount) {
    const figure = (value: number) => formatMinorUnits(value, exponent)
    problems.add(
      'balance_mismatch',
      closing.path,
      `statement ${name} does not add up: opening balance (${opening.code}) ${figure(opening.amount)} + booked entries ${figure(bookedSum)} = ${figure(opening.amount + bookedSum)} ${account.currency}, but the closing balance (CLBD) is ${figure(closing.amount)}`,
      statement.balances.find((balance) => balance.path === closing.path)?.offset,
    )
  }
  // One balance per type, reported type and day: a later one in the statement (a later ITBD) replaces an earlier.
  const balances = new Map<string, PlannedBalance>()
  for (const { path: _path, ...balance } of planned) balances.set(`${balance.type}/${balance.reportedType}/${balance.localDate}`, balance)

  return {
    statementId: name,
    ...(statement.electronicSequenceNumber !== undefined ? { electronicSequenceNumber: statement.electronicSequenceNumber } : {}),
    iban,
    account,
    entriesFound: statement.entries.length,
    entriesNotBooked: notBooked,
    entries,
    balances: [...balances.values()],
  }
}

/**
 * Validates a parsed message against the organization's accounts (IBAN → accounts) and turns each
 * statement into the entries and balances to store. Writes nothing.
 * @throws ApiError invalid_request (400) listing every problem: unknown account, currency mismatch,
 * bad amounts or CdtDbtInd, missing dates, repeated entry references, sums that do not add up.
 */
export function planImport(message: CamtMessage, accounts: ReadonlyMap<string, StatementAccount[]>): StatementPlan[] {
  const problems = new Problems(message)
  if (message.statements.length === 0) {
    const item = message.kind === 'camt.053' ? 'Stmt' : message.kind === 'camt.052' ? 'Rpt' : 'Ntfctn'
    problems.add('required', item, `the ${message.kind} message holds no ${item}`)
  }
  const plans: StatementPlan[] = []
  for (const statement of message.statements) {
    const before = problems.total
    const plan = planStatement(statement, accounts, problems)
    if (plan && problems.total === before) plans.push(plan)
  }
  problems.throwIfAny()
  return plans
}
