import type { QueryResult } from 'kysely'
import type { Executor } from '../../db/database.js'
import type { SandboxAccountsTable, SandboxBanksTable } from '../../db/schema.js'
import { BankConnectorError } from './bank-connector.js'
import { sandboxRepo } from './sandbox.repo.js'

/** The sandbox bank's business date from its row. @throws BankConnectorError when the organization has no sandbox bank. */
export function todayOf(organizationId: string, bank: Pick<SandboxBanksTable, 'today'> | undefined): string {
  if (!bank) throw new BankConnectorError(`Organization ${organizationId} has no sandbox bank`)
  return bank.today
}

/**
 * The sandbox bank's business date for an account, read as statements to run with others (runTogether: a payment
 * reads it with its other facts, one round trip on PostgreSQL); `sandboxTodayOf` reads their answers: the bank's
 * today when it holds the account, undefined when it does not. The same answer as the bank's `holds`, then `today`.
 */
export function sandboxTodayStatements(db: Executor, organizationId: string, accountId: string) {
  return [sandboxRepo.findAccountStatement(db, accountId), sandboxRepo.bankDateStatement(db, organizationId)] as const
}

export function sandboxTodayOf(
  organizationId: string,
  [held, bank]: readonly [QueryResult<SandboxAccountsTable>, QueryResult<Pick<SandboxBanksTable, 'today'>>],
): string | undefined {
  return held.rows[0] ? todayOf(organizationId, bank.rows[0]) : undefined
}
