import type { Transaction } from '../transactions/transaction.schemas.js'
import type { ImportWarning } from './statement.schemas.js'

/**
 * The warnings of an import (issue 12): what it booked as the file says, but a person should know of.
 * Only what a statement booked counts — the same statement imported again books nothing and warns of
 * nothing — and each warning is one per statement however many transactions it concerns, so that a
 * large file answers with a readable list rather than a copy of itself.
 */

/** Transactions a warning names, at most. */
const NAMED_TRANSACTIONS = 10

export type WarningPlace = Pick<ImportWarning, 'statementId' | 'accountId' | 'field'>

/** What Kassa knew of an account before a statement was booked on it. */
export interface AccountHistory {
  /** The date of the account's earliest transaction. */
  earliestDate?: string
  /** The statement imported for the account whose period ends last. */
  lastStatement?: { statementId: string; from: string; to: string }
}

/** The transactions a statement booked dated before a day: how many, from when to when. */
class BookedBefore {
  count = 0
  private first = ''
  private last = ''

  constructor(readonly day: string) {}

  see(date: string): void {
    if (date >= this.day) return
    if (this.count === 0 || date < this.first) this.first = date
    if (this.count === 0 || date > this.last) this.last = date
    this.count += 1
  }

  describe(statementId: string): string {
    const dated = this.first === this.last ? `dated ${this.first}` : `dated ${this.first} to ${this.last}`
    return `Statement ${statementId} booked ${this.count} transaction${this.count === 1 ? '' : 's'} ${dated}`
  }
}

/**
 * What one statement's booked transactions call for:
 * - booking_date_taken: transactions whose entry had no booking date (camt makes BookgDt optional)
 *   and took its value date or the statement's (their dateSource says which);
 * - before_account_history, before_last_statement: a statement older than the account's known
 *   history — transactions dated before the account's earliest one, or before the period of a
 *   statement imported earlier — is booked as the bank says, and said so.
 */
export class StatementWarnings {
  private takenDates = 0
  private readonly named: string[] = []
  private readonly beforeEarliest: BookedBefore | undefined
  private readonly beforeLastStatement: BookedBefore | undefined

  constructor(private readonly history: AccountHistory) {
    this.beforeEarliest = history.earliestDate !== undefined ? new BookedBefore(history.earliestDate) : undefined
    this.beforeLastStatement = history.lastStatement ? new BookedBefore(history.lastStatement.from) : undefined
  }

  booked(transactions: ReadonlyArray<Pick<Transaction, 'date' | 'dateSource' | 'references'>>): void {
    for (const { date, dateSource, references } of transactions) {
      this.beforeEarliest?.see(date)
      this.beforeLastStatement?.see(date)
      if (dateSource === undefined) continue
      this.takenDates += 1
      if (this.named.length < NAMED_TRANSACTIONS) {
        this.named.push(`${references.entryReference} on ${dateSource === 'VALUE_DATE' ? 'its value date' : "the statement's date"} ${date}`)
      }
    }
  }

  warnings(place: WarningPlace): ImportWarning[] {
    const warnings: ImportWarning[] = []
    if (this.takenDates > 0) {
      const more = this.takenDates > this.named.length ? `, and ${this.takenDates - this.named.length} more` : ''
      const count = this.takenDates === 1 ? '1 transaction' : `${this.takenDates} transactions`
      warnings.push({
        code: 'booking_date_taken',
        ...place,
        message: `Statement ${place.statementId} booked ${count} whose entry has no booking date (BookgDt), on another date as its dateSource says: ${this.named.join(', ')}${more}`,
      })
    }
    const { beforeEarliest, beforeLastStatement } = this
    if (beforeEarliest && beforeEarliest.count > 0) {
      warnings.push({
        code: 'before_account_history',
        ...place,
        message: `${beforeEarliest.describe(place.statementId)}, before the earliest transaction the account had (${beforeEarliest.day})`,
      })
    }
    const last = this.history.lastStatement
    if (last && beforeLastStatement && beforeLastStatement.count > 0) {
      const period = last.from === last.to ? last.from : `${last.from} to ${last.to}`
      warnings.push({
        code: 'before_last_statement',
        ...place,
        message: `${beforeLastStatement.describe(place.statementId)}, before the period of statement ${last.statementId} (${period}) imported earlier: statements were imported out of order`,
      })
    }
    return warnings
  }
}
