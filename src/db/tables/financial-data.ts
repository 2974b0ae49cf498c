/** Own accounts, their transactions and balances, and the sandbox bank (financial-data/). Column conventions: see ../schema.ts. */

/**
 * A legal entity of the organization (reference §2.10). `parent_id` names another entity of the organization, never
 * making a cycle; `national_identifier` and `address` are JSON documents or null.
 */
export interface EntitiesTable {
  id: string
  organization_id: string
  external_id: string | null
  legal_name: string
  parent_id: string | null
  national_identifier: string | null
  address: string | null
  metadata: string
  version: number
  created: string
  updated: string
  deleted_at: string | null
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
  /**
   * The bank connection serving the account (its thirdPartyId): a FILES connection, or the sandbox bank's own
   * SANDBOX connection for its accounts; null for an account registered without one (statements only).
   */
  connection_id: string | null
  /** The entity the account belongs to; every account has one (0018 gave the older ones their organization's). */
  entity_id: string
  metadata: string
  version: number
  created: string
  updated: string
}

export interface TransactionsTable {
  id: string
  organization_id: string
  account_id: string
  amount: number
  currency: string
  date: string
  value_date: string
  /** Where `date` came from when the bank reported no booking date; null when it did. */
  date_source: 'VALUE_DATE' | 'STATEMENT_DATE' | null
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

/**
 * An entry the bank reported before booking it (financial-data/pending-transactions/): columns as `transactions`,
 * without reconciliation. `status` PENDING while the bank shows it; BOOKED when the booked entry with the same
 * entry reference arrived (`booked_transaction_id` names it); WITHDRAWN when the bank dropped it unbooked.
 */
export interface PendingTransactionsTable {
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
  returned: number
  return_reason: string | null
  entry_reference: string
  status: 'PENDING' | 'BOOKED' | 'WITHDRAWN'
  booked_transaction_id: string | null
  version: number
  created: string
  updated: string
}

/** A statement imported for an account, with the days it covers: what a later statement is compared with. */
export interface StatementImportsTable {
  id: string
  organization_id: string
  account_id: string
  /** Stmt/Id (Rpt/Id, Ntfctn/Id). */
  statement_id: string
  /** Its period (FrToDt), else the span of its entries' and balances' dates; null when it gives none. */
  from_date: string | null
  to_date: string | null
  created: string
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
