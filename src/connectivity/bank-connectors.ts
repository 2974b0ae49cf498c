import type { CompiledQuery, QueryResult } from 'kysely'
import type { Database, Executor } from '../db/database.js'
import { setupRead } from '../db/setup-reads.js'
import { accountRepo } from '../financial-data/accounts/index.js'
import { sandboxConnectorFor, sandboxTodayOf, sandboxTodayStatements, type BankConnector } from '../financial-data/sandbox/index.js'
import { filesConnector } from './files-out/files-connector.js'

/**
 * The connector of an own account (bank-connector.ts): the files connector for an account on a FILES connection
 * (its thirdPartyId), the sandbox bank for the accounts it holds (on its SANDBOX connection), undefined for
 * accounts no connector serves.
 */
export async function bankConnectorFor(database: Database, db: Executor, accountId: string): Promise<BankConnector | undefined> {
  if ((await accountRepo.connectionTypeOf(db, accountId)) === 'FILES') return filesConnector
  return sandboxConnectorFor(database, db, accountId)
}

/** A bank business date's reads, to run with others (runTogether), and the date read from their answers. */
export interface BankTodayReads {
  readonly statements: readonly CompiledQuery[]
  /** From the answers to `statements`, in their order: the date, or undefined for an account no connector serves. */
  today(answers: readonly QueryResult<unknown>[]): Promise<string | undefined>
}

/**
 * The business date of the bank holding an own account, as its connector reports it (BankConnector.today). Every
 * payment created asks it, so it is read in one go with the payment's other facts: the account's connection and the
 * sandbox bank's answer for the account together (one round trip on PostgreSQL, where bankConnectorFor and then the
 * connector's today take three). They are setup reads (db/setup-reads.ts): on SQLite answered from memory while the
 * account's connection, the sandbox bank's date and its accounts are unchanged. The account must be the
 * organization's before the date is used: another's changes do not change this organization's token.
 */
export function bankTodayReads(db: Executor, organizationId: string, accountId: string): BankTodayReads {
  const sandbox = sandboxTodayStatements(db, organizationId, accountId).map((statement) => setupRead(organizationId, statement))
  return {
    statements: [setupRead(organizationId, accountRepo.connectionTypeStatement(db, accountId)), ...sandbox],
    async today(answers) {
      const [connection, held, bank] = answers as [QueryResult<{ type: string }>, ...Parameters<typeof sandboxTodayOf>[1]]
      if (connection.rows[0]?.type === 'FILES') return filesConnector.today(db, organizationId)
      return sandboxTodayOf(organizationId, [held, bank])
    },
  }
}
