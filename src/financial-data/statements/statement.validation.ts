import { formatMinorUnits } from '../../shared/money.js'
import type { NumberedAccount } from '../accounts/index.js'
import type { BookedEntry, ReportedBalance } from '../bookings/booking.service.js'
import type { CamtSink, CamtStatementHead } from './camt-parser.js'
import { MESSAGE_KINDS, type CamtBalance, type CamtEntry, type CamtKind, type CamtMessage } from './camt-model.js'
import { MemoryBudget, stringBytes } from './memory-budget.js'
import { PlannedEntries } from './planned-entries.js'
import { matchAccount, type AccountMatch } from './statement-account.js'
import { bookedEntriesOf, entryReferenceOf, pendingEntriesOf } from './statement-entries.js'
import { checkedAmount, entryDatesOf, isDate, NOT_BOOKED_STATUSES, planBalance, Problems, statementContext, statementDateOf, type StatementContext } from './statement-rules.js'
import { MAX_PLAN_BYTES, statementTooLarge } from './statement.limits.js'

/**
 * The rules a statement file must pass before anything of it is written (statement-rules.ts), and its
 * translation into what the bookings interface stores (entries: statement-entries.ts). Every problem
 * found is reported, each with the path of the element at fault ("Stmt[1].Ntry[3].Amt") and its line.
 * A statement's entries and balances are checked whether or not it names a known account, and the
 * account rule (statement-account.ts) is reported after them: when a file has several faults, the
 * real ones of its content are not hidden behind it (issue 12).
 */

/** A Map entry's share of its table, beside its key. */
const INDEX_ENTRY_BYTES = 32

export type StatementAccount = NumberedAccount

export interface PlannedBalance extends ReportedBalance {
  /** The ISO 20022 balance type code it came from (OPBD, CLBD, …). */
  code: string
}

export interface StatementPlan extends Pick<AccountMatch, 'iban' | 'otherAccountId'> {
  statementId: string
  electronicSequenceNumber?: string
  /** Where the statement is in the file, e.g. "Stmt[2]". */
  path: string
  account: StatementAccount
  /** The days it covers (periodOf). */
  period?: { from: string; to: string }
  entriesFound: number
  entriesNotBooked: number
  entries: PlannedEntries
  /** What its PDNG entries show pending (pendingEntriesOf), once per entry reference. */
  pending: PlannedEntries
  balances: PlannedBalance[]
}

interface StatementInProgress {
  statement: CamtStatementHead
  name: string
  problemsBefore: number
  match: AccountMatch
  context: StatementContext
  /** The date of an entry that has neither BookgDt nor ValDt (statement-rules.ts). */
  statementDate?: string
  balances: CamtBalance[]
  entriesFound: number
  notBooked: number
  bookedSum: number
  /** The earliest and latest booking date of its booked entries. */
  firstDate?: string
  lastDate?: string
  entries: PlannedEntries
  pending: PlannedEntries
  pendingReferences: Set<string>
  /** Entry reference → the offset of the entry that has it, to name it when another repeats it. */
  referencedAt: Map<string, number | undefined>
  occurrences: Map<string, number>
}

/**
 * The days a statement covers: its FrToDt when it gives both ends; else the span of its booked
 * entries' dates; else, for a statement without entries, the day of its closing balance (an opening or
 * previous closing balance is often dated the day before).
 */
function periodOf(current: StatementInProgress, balances: readonly PlannedBalance[]): StatementPlan['period'] {
  const { from, to } = current.statement.period ?? {}
  if (isDate(from) && isDate(to)) return { from, to }
  if (current.firstDate !== undefined && current.lastDate !== undefined) return { from: current.firstDate, to: current.lastDate }
  const closing = balances.find((balance) => balance.code === 'CLBD' || balance.code === 'CLAV')
  return closing ? { from: closing.localDate, to: closing.localDate } : undefined
}

/**
 * Validates a message part by part, as camt-parser.ts delivers it, and turns each statement into the
 * entries and balances to store; writes nothing. What it keeps is the plan, counted against `budget`:
 * each entry is checked and translated as it arrives and then left to the garbage collector.
 */
export class ImportPlanner implements CamtSink {
  private readonly problems: Problems
  private readonly plans: StatementPlan[] = []
  private statements = 0
  private current: StatementInProgress | undefined

  /** `accounts`: the organization's accounts by account number (accountNumberKey). */
  constructor(
    private readonly accounts: ReadonlyMap<string, StatementAccount[]>,
    lineOf: CamtMessage['lineOf'],
    private readonly budget: MemoryBudget,
  ) {
    this.problems = new Problems(lineOf)
  }

  statement(statement: CamtStatementHead): void {
    const { path, offset } = statement
    const problems = this.problems
    const problemsBefore = problems.total
    this.statements += 1
    if (statement.id === undefined) problems.add('required', `${path}.Id`, 'is required', offset)
    const name = statement.id ?? path
    const match = matchAccount(statement, this.accounts, name)
    const currency = statement.account.currency ?? match.account?.currency
    const currencyOf = match.account !== undefined && currency === match.account.currency ? `account ${match.account.id}` : `statement ${name}`
    const statementDate = statementDateOf(statement)
    this.current = {
      statement,
      name,
      problemsBefore,
      match,
      context: statementContext(currency, currencyOf, problems),
      ...(statementDate !== undefined ? { statementDate } : {}),
      balances: [],
      entriesFound: 0,
      notBooked: 0,
      bookedSum: 0,
      entries: new PlannedEntries(),
      pending: new PlannedEntries(),
      pendingReferences: new Set(),
      referencedAt: new Map(),
      occurrences: new Map(),
    }
  }

  balance(balance: CamtBalance): void {
    this.current!.balances.push(balance)
  }

  entry(entry: CamtEntry): void {
    const current = this.current!
    current.entriesFound += 1
    const { context, match } = current
    const { problems } = context
    if (entry.status !== undefined && NOT_BOOKED_STATUSES.has(entry.status)) {
      current.notBooked += 1
      if (entry.status === 'PDNG') this.planPending(current, entry)
      return
    }
    if (entry.status !== 'BOOK') {
      problems.add('invalid_value', `${entry.path}.Sts`, entry.status === undefined ? 'is required' : `'${entry.status}' is not an entry status (BOOK, PDNG, INFO)`, entry.offset)
      return
    }
    const amount = checkedAmount(context, entry.path, entry.offset, entry.amount, entry.creditDebit)
    const dates = entryDatesOf(entry, current.statementDate, problems)
    if (amount === undefined || dates === undefined) return
    current.bookedSum += amount
    if (current.firstDate === undefined || dates.date < current.firstDate) current.firstDate = dates.date
    if (current.lastDate === undefined || dates.date > current.lastDate) current.lastDate = dates.date
    const reference = entryReferenceOf(entry, amount, current.occurrences)
    if (current.referencedAt.has(reference)) {
      const earlier = this.problems.lineOf(current.referencedAt.get(reference))
      const where = earlier ? `the entry on line ${earlier.line}` : 'an earlier entry'
      problems.add('duplicate_reference', entry.path, `repeats the entry reference ${reference} of ${where} in statement ${current.name}`, entry.offset)
      return
    }
    current.referencedAt.set(reference, entry.offset)
    // The plan keeps the booked entries and, for the duplicate check, each reference (counted twice: hashed ones have an occurrence too).
    this.budget.take(2 * (stringBytes(reference) + INDEX_ENTRY_BYTES))
    // A statement of no usable account is still checked, but nothing of it will be booked.
    if (match.account === undefined || match.problem !== undefined) return
    // Counted part by part: every part of a split entry repeats the entry's texts (its AddtlNtryInf may be its
    // description), so one entry of a small file can plan to gigabytes; the plan stops one part past the budget.
    for (const booked of bookedEntriesOf(entry, amount, reference, dates, match.account.currency, context.exponent)) this.budget.take(current.entries.push(booked))
  }

  /** A PDNG entry of a usable account: the pending transactions it shows, a reference repeated in the statement once. */
  private planPending(current: StatementInProgress, entry: CamtEntry): void {
    const { match, context } = current
    if (match.account === undefined || match.problem !== undefined) return
    for (const pending of pendingEntriesOf(entry, current.statementDate, match.account.currency, context.exponent)) {
      if (current.pendingReferences.has(pending.entryReference)) continue
      current.pendingReferences.add(pending.entryReference)
      this.budget.take(current.pending.push(pending) + stringBytes(pending.entryReference) + INDEX_ENTRY_BYTES)
    }
  }

  endStatement(): void {
    const current = this.current!
    this.current = undefined
    const { context, statement, problemsBefore, match, name } = current
    const { problems, exponent } = context
    const planned = current.balances.map((balance) => planBalance(context, balance)).filter((balance) => balance !== undefined)
    const opening = planned.find((balance) => balance.code === 'OPBD') ?? planned.find((balance) => balance.code === 'PRCD')
    const closing = planned.find((balance) => balance.code === 'CLBD')
    const { bookedSum } = current
    if (opening && closing && problems.total === problemsBefore && opening.amount + bookedSum !== closing.amount) {
      const figure = (value: number) => formatMinorUnits(value, exponent)
      problems.add(
        'balance_mismatch',
        closing.path,
        `statement ${name} does not add up: opening balance (${opening.code}) ${figure(opening.amount)} + booked entries ${figure(bookedSum)} = ${figure(opening.amount + bookedSum)} ${context.currency}, but the closing balance (CLBD) is ${figure(closing.amount)}`,
        current.balances.find((balance) => balance.path === closing.path)?.offset,
      )
    }
    if (match.problem) problems.add(match.problem.code, match.problem.field, match.problem.error, statement.offset)
    if (problems.total !== problemsBefore || !match.account) return
    // One balance per type, reported type and day: a later one in the statement (a later ITBD) replaces an earlier.
    const balances = new Map<string, PlannedBalance>()
    for (const { path: _path, ...balance } of planned) balances.set(`${balance.type}/${balance.reportedType}/${balance.localDate}`, balance)
    const period = periodOf(current, [...balances.values()])
    this.plans.push({
      statementId: name,
      ...(statement.electronicSequenceNumber !== undefined ? { electronicSequenceNumber: statement.electronicSequenceNumber } : {}),
      path: statement.path,
      ...(match.iban !== undefined ? { iban: match.iban } : { otherAccountId: match.otherAccountId! }),
      account: match.account,
      ...(period ? { period } : {}),
      entriesFound: current.entriesFound,
      entriesNotBooked: current.notBooked,
      entries: current.entries,
      pending: current.pending,
      balances: [...balances.values()],
    })
  }

  /**
   * The plan of every statement, once the message has ended.
   * @throws ApiError invalid_request (400) listing every problem: bad amounts or CdtDbtInd, amounts in
   * another currency, missing or invalid dates, repeated entry references, sums that do not add up,
   * and after them an unknown account or one in another currency.
   */
  finish(kind: CamtKind): StatementPlan[] {
    if (this.statements === 0) {
      const { item } = MESSAGE_KINDS[kind]
      this.problems.add('required', item, `the ${kind} message holds no ${item}`)
    }
    this.problems.throwIfAny()
    return this.plans
  }
}

/**
 * Validates a parsed message against the organization's accounts (by account number): ImportPlanner over a
 * whole message, its plans' entries decoded (small messages: tests and tools).
 */
export function planImport(message: CamtMessage, accounts: ReadonlyMap<string, StatementAccount[]>): Array<Omit<StatementPlan, 'entries'> & { entries: BookedEntry[] }> {
  const planner = new ImportPlanner(accounts, message.lineOf, new MemoryBudget(MAX_PLAN_BYTES, () => statementTooLarge('its plan takes too much memory')))
  for (const statement of message.statements) {
    planner.statement(statement)
    for (const balance of statement.balances) planner.balance(balance)
    for (const entry of statement.entries) planner.entry(entry)
    planner.endStatement()
  }
  return planner.finish(message.kind).map((plan) => ({ ...plan, entries: plan.entries.all() }))
}
