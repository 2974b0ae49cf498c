import type { Database } from '../../db/database.js'
import type { CommandContext } from '../../shared/command-context.js'
import { toAmount } from '../../shared/money.js'
import { reportBalances } from '../bookings/balance-reports.js'
import { bookEntries } from '../bookings/booking.service.js'
import { parseCamt } from './camt-parser.js'
import { statementRepo } from './statement.repo.js'
import type { ImportedStatement, StatementImport } from './statement.schemas.js'
import { planImport } from './statement.validation.js'

/** Events of transactions booked from a statement are the bank's doing. */
const BANK_ORIGINATOR = 'BANK'

export function createStatementService(database: Database) {
  return {
    /**
     * Imports a bank statement file: books each statement's booked entries on the account its IBAN
     * names and records its balances. Parsing and every check run before the one transaction that
     * writes, so a rejected file leaves nothing behind; entries the account already has (same entry
     * reference) are counted, not booked again, and balances replace the same day's report.
     * @throws ApiError invalid_request (400): malformed XML, unsupported message, unknown account,
     * currency mismatch, invalid entries or balances, sums that do not add up (details say where).
     */
    async import(ctx: CommandContext, xml: string): Promise<StatementImport> {
      const message = parseCamt(xml)
      const accounts = await statementRepo.accountsByIban(database.db, ctx.actor.organizationId)
      const plans = planImport(message, accounts)
      return ctx.transaction(async (trx) => {
        const statements: ImportedStatement[] = []
        for (const plan of plans) {
          const booked = await bookEntries(trx, plan.account, plan.entries, BANK_ORIGINATOR)
          await reportBalances(trx, plan.account, plan.balances)
          statements.push({
            statementId: plan.statementId,
            ...(plan.electronicSequenceNumber !== undefined ? { electronicSequenceNumber: plan.electronicSequenceNumber } : {}),
            accountId: plan.account.id,
            iban: plan.iban,
            currency: plan.account.currency,
            entriesFound: plan.entriesFound,
            entriesNotBooked: plan.entriesNotBooked,
            transactionsBooked: booked.length,
            transactionsAlreadyPresent: plan.entries.length - booked.length,
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
          messageType: `${message.kind}.${message.version}`,
          ...(message.messageId !== undefined ? { messageId: message.messageId } : {}),
          statementsFound: message.statements.length,
          transactionsBooked: statements.reduce((sum, statement) => sum + statement.transactionsBooked, 0),
          transactionsAlreadyPresent: statements.reduce((sum, statement) => sum + statement.transactionsAlreadyPresent, 0),
          statements,
        }
      })
    },
  }
}
