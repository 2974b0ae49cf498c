import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Database, Executor } from '../../db/database.js'
import type { CommandContext } from '../../shared/command-context.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { toAmount } from '../../shared/money.js'
import { accountRepo } from '../accounts/index.js'
import { reportBalances } from '../bookings/balance-reports.js'
import { bookEntries } from '../bookings/booking.service.js'
import { reportPendingEntries } from '../bookings/pending-entries.js'
import { statementRepo } from './statement.repo.js'
import { readStatementFile, type ReadOptions, type StatementFile } from './statement-file.js'
import { StatementWarnings } from './statement-warnings.js'
import { BOOKING_BATCH, BOOKING_BATCH_CHARACTERS } from './statement.limits.js'
import type { ImportedStatement, ImportWarning, StatementImport } from './statement.schemas.js'
import { toTransaction, transactionRepo } from '../transactions/transaction.repo.js'
import type { Transaction } from '../transactions/transaction.schemas.js'
import type { StatementPlan } from './statement.validation.js'

/** Events of transactions booked from a statement are the bank's doing. */
const BANK_ORIGINATOR = 'BANK'

/** How far booking has gone: transactions of the file's plans handled (booked or found present), of all of them. */
export type BookingProgress = (done: number, total: number) => void

/** What a caller may follow while a statement is imported, in the import's transaction. */
export interface ImportHooks {
  progress?: BookingProgress
  /**
   * The transactions a batch created, and those of its entries the account had already (same entry reference:
   * reported before, e.g. by a notification before the day's statement), in the import's transaction.
   */
  booked?: (trx: Executor, booked: Transaction[], present: Transaction[]) => Promise<void>
}

/**
 * Books a statement's entries BOOKING_BATCH at a time (fewer when long: BOOKING_BATCH_CHARACTERS), with a turn of the event loop between batches:
 * better-sqlite3 runs each batch synchronously, and a hundred thousand entries in one go would leave
 * every other request waiting. Returns how many transactions were new; `warnings` sees them.
 */
async function bookInBatches(
  trx: Executor,
  plan: StatementPlan,
  warnings: StatementWarnings,
  progress: (handled: number) => void,
  onBooked: ImportHooks['booked'],
): Promise<number> {
  let booked = 0
  for (const batch of plan.entries.batches(BOOKING_BATCH, BOOKING_BATCH_CHARACTERS)) {
    const transactions = await bookEntries(trx, plan.account, batch, BANK_ORIGINATOR)
    warnings.booked(transactions)
    if (onBooked) {
      const created = new Set(transactions.map((transaction) => transaction.references.entryReference))
      const others = batch.map((entry) => entry.entryReference).filter((reference) => !created.has(reference))
      await onBooked(trx, transactions, (await transactionRepo.byEntryReferences(trx, plan.account.id, others)).map(toTransaction))
    }
    booked += transactions.length
    progress(batch.length)
    await nextTurn()
  }
  return booked
}

/**
 * Records what a statement's PDNG entries show pending, after its bookings: an entry it also books is not pending,
 * and one pending from an earlier report that it books was ended by its booking. Returns how many were new.
 */
async function recordPending(trx: Executor, plan: StatementPlan): Promise<number> {
  let recorded = 0
  for (const batch of plan.pending.batches(BOOKING_BATCH, BOOKING_BATCH_CHARACTERS)) recorded += await reportPendingEntries(trx, plan.account, batch, BANK_ORIGINATOR)
  return recorded
}

export function createStatementService(database: Database) {
  return {
    /**
     * Reads a statement file of the organization and checks it against its accounts (their numbers of
     * every type); writes nothing.
     * @throws ApiError invalid_request (400): malformed XML, a DOCTYPE, unsupported message, invalid
     * entries or balances, sums that do not add up, unknown account or currency mismatch (details say
     * where); payload_too_large (413): past the limits of statement.limits.ts.
     */
    async read(organizationId: string, source: AsyncIterable<Uint8Array | string>, options?: ReadOptions): Promise<StatementFile> {
      const accounts = await accountRepo.byNumber(database.db, organizationId)
      return readStatementFile(source, accounts, options)
    },

    /**
     * Imports a statement file `read` accepted: books each statement's booked entries on the account
     * it names, records what its PDNG entries show pending (ending those its bookings book), its balances
     * and its period, all in one transaction, so a failure leaves
     * nothing behind; entries the account already has (same entry reference) are counted, not booked
     * again, and balances replace the same day's report. What deserves a look — dates taken for
     * missing booking dates, a statement older than the account's history — is answered as warnings.
     */
    async import(ctx: Pick<CommandContext, 'transaction'>, file: StatementFile, hooks: ImportHooks = {}): Promise<StatementImport> {
      const onProgress = hooks.progress
      const { header, plans } = file
      const total = plans.reduce((sum, plan) => sum + plan.entries.count, 0)
      let done = 0
      onProgress?.(done, total)
      const progress = (handled: number) => {
        done += handled
        onProgress?.(done, total)
      }
      return ctx.transaction(async (trx) => {
        const statements: ImportedStatement[] = []
        const warnings: ImportWarning[] = []
        for (const plan of plans) {
          const statementWarnings = new StatementWarnings(await statementRepo.history(trx, plan.account))
          const booked = await bookInBatches(trx, plan, statementWarnings, progress, hooks.booked)
          const pendingRecorded = await recordPending(trx, plan)
          await reportBalances(trx, plan.account, plan.balances)
          await statementRepo.recordImport(trx, {
            id: newId(),
            organization_id: plan.account.organization_id,
            account_id: plan.account.id,
            statement_id: plan.statementId,
            from_date: plan.period?.from ?? null,
            to_date: plan.period?.to ?? null,
            created: nowIso(),
          })
          warnings.push(...statementWarnings.warnings({ statementId: plan.statementId, accountId: plan.account.id, field: plan.path }))
          statements.push({
            statementId: plan.statementId,
            ...(plan.electronicSequenceNumber !== undefined ? { electronicSequenceNumber: plan.electronicSequenceNumber } : {}),
            accountId: plan.account.id,
            ...(plan.iban !== undefined ? { iban: plan.iban } : { otherAccountId: plan.otherAccountId! }),
            currency: plan.account.currency,
            entriesFound: plan.entriesFound,
            entriesNotBooked: plan.entriesNotBooked,
            transactionsBooked: booked,
            transactionsAlreadyPresent: plan.entries.count - booked,
            pendingTransactionsRecorded: pendingRecorded,
            balances: plan.balances.map(({ code, type, reportedType, amount, localDate }) => ({
              code,
              type,
              reportedType,
              amount: toAmount(amount, plan.account.currency),
              localDate,
            })),
          })
        }
        return {
          messageType: `${header.kind}.${header.version}`,
          ...(header.messageId !== undefined ? { messageId: header.messageId } : {}),
          statementsFound: header.statementsFound,
          transactionsBooked: statements.reduce((sum, statement) => sum + statement.transactionsBooked, 0),
          transactionsAlreadyPresent: statements.reduce((sum, statement) => sum + statement.transactionsAlreadyPresent, 0),
          statements,
          warnings,
        }
      })
    },
  }
}
