/**
 * Table shapes as Kysely sees them. Both backends store the same column types:
 * ids are UUID strings, times are ISO 8601 UTC strings (lexically ordered),
 * JSON documents are text, flags are 0/1 integers.
 */
export interface OrganizationsTable {
  id: string
  name: string
  environment: 'SANDBOX' | 'LIVE'
  created: string
}

export interface RolesTable {
  id: string
  organization_id: string
  name: string
  builtin: string | null
  owner: number
  permissions: string
  description: string | null
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

export interface UsersTable {
  id: string
  organization_id: string
  kind: 'HUMAN' | 'PROGRAMMATIC'
  name: string
  email: string | null
  role_id: string
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

export interface AccessKeysTable {
  id: string
  organization_id: string
  user_id: string
  access_key: string
  secret_hash: string
  created: string
  revoked_at: string | null
}

export interface AccountsTable {
  id: string
  organization_id: string
  external_id: string | null
  name: string
  alias: string | null
  market: string
  currency: string
  bank_name: string
  bic: string | null
  identifiers: string
  fictive: number
  metadata: string
  version: number
  created: string
  updated: string
}

export interface CounterpartiesTable {
  id: string
  organization_id: string
  external_id: string | null
  legal_name: string
  alias: string | null
  party_type: string | null
  email: string | null
  phone: string | null
  address: string | null
  national_identifier: string | null
  metadata: string
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

export interface ExternalAccountsTable {
  id: string
  organization_id: string
  counterparty_id: string
  external_id: string | null
  market: string
  identifiers: string
  alias: string | null
  metadata: string
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

export interface EventsTable {
  organization_id: string
  entity_type: string
  entity_id: string
  sequence: number
  type: 'CREATED' | 'UPDATED' | 'DELETED'
  name: string
  timestamp: string
  originator: string
  message: string | null
  entity_version: number
  entity: string
}

export interface IdempotencyKeysTable {
  organization_id: string
  method: string
  path: string
  key: string
  fingerprint: string
  state: 'IN_PROGRESS' | 'COMPLETED'
  lock_token: string
  locked_until: string
  response_status: number | null
  response_body: string | null
  created: string
  expires_at: string
}

export interface TransactionsTable {
  id: string
  organization_id: string
  account_id: string
  amount: number
  currency: string
  date: string
  value_date: string
  description: string
  reference: string | null
  end_to_end_id: string | null
  mandate_reference: string | null
  counterparty: string | null
  bank_transaction_code: string | null
  reconciliation_status: 'NOT_RECONCILED' | 'PARTIALLY_RECONCILED' | 'RECONCILED'
  attached_transactables: string
  returned: number
  return_reason: string | null
  entry_reference: string
  metadata: string
  version: number
  created: string
  updated: string
}

export interface BalancesTable {
  id: string
  organization_id: string
  account_id: string
  type: 'BOOKED' | 'AVAILABLE'
  reported_type: 'OPEN' | 'CLOSE' | 'INTERIM'
  amount: number
  currency: string
  local_date: string
  timestamp: string
  version: number
}

export interface PaymentsTable {
  id: string
  organization_id: string
  kind: 'CREDIT_TRANSFER' | 'DIRECT_DEBIT'
  external_id: string | null
  status: string
  status_reason: string | null
  amount: number
  currency: string
  scheme: string
  date: string
  reference: string
  /** The own account: the source of a credit transfer, the destination of a direct debit. */
  account_id: string
  external_account_id: string | null
  counterparty_id: string | null
  mandate_id: string | null
  /** Snapshot of the mandate a direct debit collects under. */
  mandate: string | null
  source: string
  source_holder: string
  destination: string
  destination_holder: string
  creator_user_id: string
  connection_instruction_id: string | null
  attached_transactions: string
  metadata: string
  version: number
  created: string
  updated: string
}

export interface PaymentApprovalStepsTable {
  id: string
  payment_id: string
  approval_chain_id: string | null
  position: number
  required_role_ids: string
  required_user_ids: string
  allow_creator_approval: number
  auto_approved: number
  status: 'PENDING' | 'APPROVED' | 'REJECTED'
  approver_user_id: string | null
  updated: string | null
}

export interface MandatesTable {
  id: string
  organization_id: string
  external_id: string | null
  external_account_id: string
  counterparty_id: string
  scheme: string
  creditor_reference: string
  mandate_reference: string
  signature_date: string
  status: string
  metadata: string
  version: number
  created: string
  updated: string
}

export interface ApprovalChainsTable {
  id: string
  organization_id: string
  name: string
  trigger: string
  steps: string
  auto_approve: number
  auto_approve_below: number | null
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

/** The sandbox bank's clock of one organization: its simulated business date. */
export interface SandboxBanksTable {
  organization_id: string
  today: string
  version: number
  created: string
  updated: string
}

/** Where a sandbox account's ledger starts: booked balance = opening_balance + entries dated from opening_date on. */
export interface SandboxAccountsTable {
  account_id: string
  organization_id: string
  opening_balance: number
  opening_date: string
  created: string
}

/** A payment instruction the sandbox bank received; amount is positive minor units. */
export interface SandboxInstructionsTable {
  id: string
  organization_id: string
  account_id: string
  payment_type: 'CREDIT_TRANSFER' | 'DIRECT_DEBIT'
  payment_id: string
  amount: number
  currency: string
  execution_date: string
  counterparty_name: string
  counterparty_iban: string
  counterparty_bic: string | null
  reference: string | null
  end_to_end_id: string
  mandate_reference: string | null
  scheme: string | null
  status: 'PENDING_AT_BANK' | 'ACCEPTED' | 'EXECUTED' | 'FAILED' | 'RETURNED'
  reason_code: string | null
  booked_date: string | null
  transaction_id: string | null
  return_transaction_id: string | null
  version: number
  created: string
  updated: string
}

/** A webhook subscription; `filter` is the JSON array of {resource, apiVersion, events?}. */
export interface WebhooksTable {
  id: string
  organization_id: string
  name: string | null
  url: string
  filter: string
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

/** A signing key of a webhook: 32 random bytes, base64. Kept in clear, as HMAC signing needs it. */
export interface WebhookKeysTable {
  id: string
  webhook_id: string
  signing_key: string
  created: string
}

/** One event to POST to one webhook (the transactional outbox); `payload` is the exact body. */
export interface WebhookDeliveriesTable {
  id: string
  organization_id: string
  webhook_id: string
  resource: string
  entity_id: string
  /** The event's per-entity sequence: deliveries of one entity to one webhook go in this order. */
  sequence: number
  event_type: string
  event_name: string
  payload: string
  status: 'PENDING' | 'DELIVERED' | 'FAILED' | 'CANCELLED'
  attempts: number
  next_attempt_at: string
  /** When the current run of retries began (enqueued, or redelivered); retries stop a configured time after it. */
  retry_since: string
  /** While set and in the future, a worker holds the delivery; a lapsed lease makes it claimable again. */
  locked_until: string | null
  claim_token: string | null
  created: string
  updated: string
  delivered_at: string | null
}

export interface WebhookDeliveryAttemptsTable {
  id: string
  delivery_id: string
  attempted: string
  status_code: number | null
  duration_ms: number
  error: string | null
}

export interface DatabaseSchema {
  organizations: OrganizationsTable
  roles: RolesTable
  users: UsersTable
  access_keys: AccessKeysTable
  accounts: AccountsTable
  counterparties: CounterpartiesTable
  external_accounts: ExternalAccountsTable
  transactions: TransactionsTable
  balances: BalancesTable
  payments: PaymentsTable
  payment_approval_steps: PaymentApprovalStepsTable
  mandates: MandatesTable
  approval_chains: ApprovalChainsTable
  events: EventsTable
  idempotency_keys: IdempotencyKeysTable
  sandbox_banks: SandboxBanksTable
  sandbox_accounts: SandboxAccountsTable
  sandbox_instructions: SandboxInstructionsTable
  webhooks: WebhooksTable
  webhook_keys: WebhookKeysTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable
}
