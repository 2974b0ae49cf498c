/**
 * Table shapes as Kysely sees them. Both backends store the same column types:
 * ids are UUID strings, times are ISO 8601 UTC strings (lexically ordered),
 * JSON documents are text, flags are 0/1 integers.
 */
import type { OrganizationsTable, RolesTable, UsersTable, AccessKeysTable, UserPasswordsTable, UserTotpTable, SessionsTable, SignInFailuresTable, OAuth2AccessTokensTable, AuditLogEntriesTable } from './tables/iam.js'
import type { EventsTable, IdempotencyKeysTable } from './tables/conventions.js'
import type { AccountsTable, EntitiesTable, TransactionsTable, PendingTransactionsTable, BalancesTable, StatementImportsTable, SandboxBanksTable, SandboxAccountsTable, SandboxInstructionsTable } from './tables/financial-data.js'
import type { CounterpartiesTable, ExternalAccountsTable, PaymentsTable, PaymentApprovalStepsTable, MandatesTable, ApprovalChainsTable, CreditTransferBatchesTable, CreditTransferBatchResultsTable, CreditTransferBatchApprovalStepsTable } from './tables/payments.js'
import type { WebhooksTable, WebhookKeysTable, WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from './tables/webhooks.js'
import type { BankConnectionsTable, BankFileItemsTable, BankFilesTable, SimulatedBankAnswersTable, SimulatedBankIntakeTable } from './tables/connectivity.js'
import type { RateLimitHitsTable } from './tables/rate-limits.js'
import type { SetupStateTokensTable } from './tables/setup-state-tokens.js'

export type { OrganizationsTable, RolesTable, UsersTable, AccessKeysTable, UserPasswordsTable, UserTotpTable, SessionsTable, SignInFailuresTable, OAuth2AccessTokensTable, AuditLogEntriesTable } from './tables/iam.js'
export type { EventsTable, IdempotencyKeysTable } from './tables/conventions.js'
export type { AccountsTable, EntitiesTable, TransactionsTable, PendingTransactionsTable, BalancesTable, StatementImportsTable, SandboxBanksTable, SandboxAccountsTable, SandboxInstructionsTable } from './tables/financial-data.js'
export type { CounterpartiesTable, ExternalAccountsTable, PaymentsTable, PaymentApprovalStepsTable, MandatesTable, ApprovalChainsTable, CreditTransferBatchesTable, CreditTransferBatchResultsTable, CreditTransferBatchApprovalStepsTable } from './tables/payments.js'
export type { WebhooksTable, WebhookKeysTable, WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from './tables/webhooks.js'
export type { BankConnectionsTable, BankFileItemsTable, BankFilesTable, SimulatedBankAnswersTable, SimulatedBankIntakeTable } from './tables/connectivity.js'
export type { RateLimitHitsTable } from './tables/rate-limits.js'
export type { SetupStateTokensTable } from './tables/setup-state-tokens.js'

export interface DatabaseSchema {
  organizations: OrganizationsTable
  roles: RolesTable
  users: UsersTable
  access_keys: AccessKeysTable
  user_passwords: UserPasswordsTable
  user_totp: UserTotpTable
  sessions: SessionsTable
  sign_in_failures: SignInFailuresTable
  oauth2_access_tokens: OAuth2AccessTokensTable
  audit_log_entries: AuditLogEntriesTable
  entities: EntitiesTable
  accounts: AccountsTable
  counterparties: CounterpartiesTable
  external_accounts: ExternalAccountsTable
  transactions: TransactionsTable
  pending_transactions: PendingTransactionsTable
  balances: BalancesTable
  statement_imports: StatementImportsTable
  payments: PaymentsTable
  payment_approval_steps: PaymentApprovalStepsTable
  mandates: MandatesTable
  approval_chains: ApprovalChainsTable
  credit_transfer_batches: CreditTransferBatchesTable
  credit_transfer_batch_results: CreditTransferBatchResultsTable
  credit_transfer_batch_approval_steps: CreditTransferBatchApprovalStepsTable
  events: EventsTable
  idempotency_keys: IdempotencyKeysTable
  sandbox_banks: SandboxBanksTable
  sandbox_accounts: SandboxAccountsTable
  sandbox_instructions: SandboxInstructionsTable
  webhooks: WebhooksTable
  webhook_keys: WebhookKeysTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable
  bank_connections: BankConnectionsTable
  bank_file_items: BankFileItemsTable
  bank_files: BankFilesTable
  simulated_bank_intake: SimulatedBankIntakeTable
  simulated_bank_answers: SimulatedBankAnswersTable
  rate_limit_hits: RateLimitHitsTable
  setup_state_tokens: SetupStateTokensTable
}
