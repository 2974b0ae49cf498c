import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely'
import * as foundation from './migrations/0001-foundation.js'
import * as financialData from './migrations/0002-financial-data.js'
import * as sandboxBank from './migrations/0003-sandbox-bank.js'
import * as payments from './migrations/0004-payments.js'
import * as webhooks from './migrations/0005-webhooks.js'
import * as iamSettings from './migrations/0006-iam-settings.js'
import * as signIn from './migrations/0007-sign-in.js'
import * as userStatus from './migrations/0008-user-status.js'
import * as webhookAttemptResponse from './migrations/0009-webhook-attempt-response.js'
import * as statementImportHistory from './migrations/0010-statement-import-history.js'
import * as bankConnections from './migrations/0011-bank-connections.js'
import * as accountConnections from './migrations/0012-account-connections.js'
import * as bankFiles from './migrations/0013-bank-files.js'
import * as inboundFiles from './migrations/0014-inbound-files.js'
import * as simulatedBank from './migrations/0015-simulated-bank.js'
import * as oauth2AccessTokens from './migrations/0017-oauth2-access-tokens.js'
import * as entities from './migrations/0018-entities.js'
import * as pendingTransactions from './migrations/0019-pending-transactions.js'
import * as creditTransferBatches from './migrations/0020-credit-transfer-batches.js'
import * as auditLog from './migrations/0021-audit-log.js'
import * as rateLimitHits from './migrations/0022-rate-limit-hits.js'
import * as ownerRoleIndex from './migrations/0023-owner-role-index.js'
import * as paymentQueues from './migrations/0024-payment-queues.js'
import * as setupStateTokens from './migrations/0025-setup-state-tokens.js'
import * as paymentAccountSetupRead from './migrations/0026-payment-account-setup-read.js'

/** Migrations are listed here in order; names never change once released. */
const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-financial-data': financialData,
  '0003-sandbox-bank': sandboxBank,
  '0004-payments': payments,
  '0005-webhooks': webhooks,
  '0006-iam-settings': iamSettings,
  '0007-sign-in': signIn,
  '0008-user-status': userStatus,
  '0009-webhook-attempt-response': webhookAttemptResponse,
  '0010-statement-import-history': statementImportHistory,
  '0011-bank-connections': bankConnections,
  '0012-account-connections': accountConnections,
  '0013-bank-files': bankFiles,
  '0014-inbound-files': inboundFiles,
  '0015-simulated-bank': simulatedBank,
  '0017-oauth2-access-tokens': oauth2AccessTokens,
  '0018-entities': entities,
  '0019-pending-transactions': pendingTransactions,
  '0020-credit-transfer-batches': creditTransferBatches,
  '0021-audit-log': auditLog,
  '0022-rate-limit-hits': rateLimitHits,
  '0023-owner-role-index': ownerRoleIndex,
  '0024-payment-queues': paymentQueues,
  '0025-setup-state-tokens': setupStateTokens,
  '0026-payment-account-setup-read': paymentAccountSetupRead,
}

export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  return applied(await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest())
}

/** Migrates up to `name` and no further: how a test makes a database as an older version left it. */
export async function migrateTo(db: Kysely<unknown>, name: string): Promise<string[]> {
  return applied(await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(name))
}

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
