/** Counterparties, payments, mandates and approval chains (payments/). Column conventions: see ../schema.ts. */

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
  /** JSON array of the ids of the entities the counterparty is scoped to; [] for the whole organization. */
  entity_ids: string
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
  /** The credit transfer batch the payment was made from, and that batch's treatment (migration 0020). */
  batch_id: string | null
  batch_treatment: 'INDIVIDUAL_PAYMENTS' | 'BATCH' | null
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

export interface CreditTransferBatchesTable {
  id: string
  organization_id: string
  external_id: string | null
  treatment: 'INDIVIDUAL_PAYMENTS' | 'BATCH'
  skip_validation_errors: number
  status: string
  /** JSON: {contentType, recordCount, size, checksum, filename?} */
  input_content: string
  /** JSON: {total, succeeded, failed, skipped} */
  result_summary: string
  /** JSON array of the batch's own errors (not its records'). */
  errors: string
  /** A BATCH batch's one currency and the sum of its payments in minor units, on which its steps were planned. */
  currency: string | null
  total: number | null
  creator_user_id: string
  metadata: string
  version: number
  created: string
  updated: string
}

export interface CreditTransferBatchResultsTable {
  batch_id: string
  record_index: number
  payment_id: string | null
  /** JSON array of ErrorDetail. */
  errors: string
  skipped: number
}

/** The approval steps of a BATCH batch: payment_approval_steps' columns, owned by the batch. */
export type CreditTransferBatchApprovalStepsTable = Omit<PaymentApprovalStepsTable, 'payment_id'> & { batch_id: string }
