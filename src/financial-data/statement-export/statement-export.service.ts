import type { Database, Executor } from '../../db/database.js'
import type { TransactionsTable } from '../../db/schema.js'
import { invalidField } from '../../http/errors.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { requirePermission } from '../../iam/authorize.js'
import { nowIso } from '../../shared/clock.js'
import { endToEndIdOf, newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import { currencyExponent } from '../../shared/money.js'
import { accountRepo, toAccount } from '../accounts/account.repo.js'
import { addDays, daysBetween } from '../../shared/calendar.js'
import { toTransaction } from '../transactions/transaction.repo.js'
import { writeCamt053, type StatementEntry } from './camt053.writer.js'
import { balanceAtEndOf } from './day-end-balance.js'
import { statementExportRepo } from './statement-export.repo.js'
import { MAX_STATEMENT_DAYS, type StatementExportQuery } from './statement-export.schemas.js'

/** The ids a camt message carries (MsgId, Stmt/Id: Max35Text): a new UUID without hyphens, unique per document. */
function messageIdOf(): string {
  return newId().replaceAll('-', '').toUpperCase()
}

function entryOf(row: TransactionsTable): StatementEntry {
  const transaction = toTransaction(row)
  // Payments reconciled to the booking (reference §2.3 attachedTransactables) travel with their end-to-end ids.
  const payments = transaction.attachedTransactables.filter((attached) => attached.type === 'CREDIT_TRANSFER' || attached.type === 'DIRECT_DEBIT')
  const ownEndToEndId = transaction.references.endToEndId
  return {
    amount: row.amount,
    date: transaction.date,
    valueDate: transaction.valueDate,
    entryReference: transaction.references.entryReference,
    description: transaction.description,
    reference: transaction.reference,
    endToEndIds: payments.length > 0 ? payments.map((payment) => endToEndIdOf(payment.id)) : ownEndToEndId !== undefined ? [ownEndToEndId] : [],
    counterparty: transaction.counterparty,
    bankTransactionCode: transaction.bankTransactionCode,
  }
}

async function balanceAt(db: Executor, accountId: string, day: string): Promise<number> {
  const { before, after } = await statementExportRepo.dayEndsAround(db, accountId, day)
  return balanceAtEndOf(day, before, after, (from, through) => statementExportRepo.bookedSum(db, accountId, from, through))
}

async function statementOf(db: Executor, organizationId: string, ref: ResourceRef, from: string, to: string): Promise<string> {
  const account = toAccount(requireLive(await accountRepo.find(db, organizationId, ref), 'account', ref))
  const ownerName = await statementExportRepo.ownerName(db, organizationId)
  const created = nowIso()
  return writeCamt053({
    messageId: messageIdOf(),
    statementId: messageIdOf(),
    created,
    from,
    to,
    account: {
      identifiers: account.identifiers,
      currency: account.currency,
      name: account.name,
      ...(ownerName !== undefined ? { ownerName } : {}),
      ...(account.bank.bic !== undefined ? { bic: account.bank.bic } : {}),
    },
    exponent: currencyExponent(account.currency) ?? 2,
    opening: await balanceAt(db, account.id, addDays(from, -1)),
    closing: await balanceAt(db, account.id, to),
    entries: (await statementExportRepo.bookedIn(db, account.id, from, to)).map(entryOf),
  })
}

export function createStatementExportService(database: Database) {
  return {
    /**
     * The account's camt.053.001.08 statement of the booking days `from` through `to`: the booked balance
     * at the end of the day before `from` (OPBD) and at the end of `to` (CLBD), and every booked entry.
     * Needs, beside accounts:read on the route, transactions:read and account_balances:read: it shows both.
     * @throws ApiError forbidden (403) without those; not_found (404) for an unknown account;
     * invalid_request (400) naming `to` when it comes before `from` or the range passes MAX_STATEMENT_DAYS.
     */
    async camt053(actor: Actor, ref: ResourceRef, query: StatementExportQuery): Promise<string> {
      requirePermission(actor, 'transactions:read')
      requirePermission(actor, 'account_balances:read')
      const { from, to } = query
      if (to < from) throw invalidField('to', 'must not be before from')
      if (daysBetween(from, to) + 1 > MAX_STATEMENT_DAYS) throw invalidField('to', `must be at most ${MAX_STATEMENT_DAYS} days from from, both included`)
      // One snapshot for balances and entries, so OPBD + entries = CLBD even while a statement is being imported
      // (the importer checks that sum): REPEATABLE READ on PostgreSQL; SQLite's transactions are serializable.
      return database.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute((trx) => statementOf(trx, actor.organizationId, ref, from, to))
    },
  }
}
