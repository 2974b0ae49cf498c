import type { Database, Executor } from '../db/database.js'
import { accountRepo } from '../financial-data/accounts/index.js'
import { sandboxConnectorFor, type BankConnector } from '../financial-data/sandbox/index.js'
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
