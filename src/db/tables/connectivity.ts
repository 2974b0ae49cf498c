/** Bank connections (connectivity/). Column conventions: see ../schema.ts. */

/**
 * How the organization reaches a bank. `initiating_party` is the JSON {name, identifiers?} the pain files
 * name as their sender; the directories are absolute paths on the server's disk, or null.
 */
export interface BankConnectionsTable {
  id: string
  organization_id: string
  external_id: string | null
  type: 'FILES' | 'SANDBOX'
  name: string
  bank_name: string
  bic: string
  /** The pain.001 version of the credit transfer files, e.g. pain.001.001.09. */
  credit_transfer_version: string
  /** The pain.008 version of the direct debit files, e.g. pain.008.001.08. */
  direct_debit_version: string
  initiating_party: string
  creditor_scheme_id: string | null
  outbox_dir: string | null
  inbox_dir: string | null
  batching_window_seconds: number
  /** 1: the other side is the sandbox's simulated bank (a sandbox organization's FILES connection). */
  simulated_bank: number
  metadata: string
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

/** A payment handed to a FILES connection: queued until gathered into a file (`file_id`). */
export interface BankFileItemsTable {
  id: string
  organization_id: string
  connection_id: string
  payment_id: string
  /** The file it belongs in: connection, account, kind, scheme, date, batch booking (files-out/file-groups.ts). */
  group_key: string
  /** The PaymentInstruction (JSON) the payments domain submitted. */
  instruction: string
  file_id: string | null
  created: string
}

/**
 * A file made for (OUTBOUND) or received from (INBOUND) a bank, as written. `status`: READY (kept here, the
 * connection has no outboxDir), PENDING_WRITE (to be written to the outboxDir), WRITTEN (it is there).
 */
export interface BankFilesTable {
  id: string
  organization_id: string
  connection_id: string
  direction: 'OUTBOUND' | 'INBOUND'
  /** e.g. pain.001.001.09. */
  message_type: string
  message_id: string
  status: 'READY' | 'PENDING_WRITE' | 'WRITTEN' | 'PROCESSED'
  size: number
  sha256: string
  /** JSON array of the ids of the payments the file carries. */
  payment_ids: string
  content: string
  /** INBOUND: JSON of what processing the file did (files-in), answered again when the same file comes again. */
  report: string | null
  created: string
  updated: string
}

/** An OUTBOUND file of a simulated-bank connection the simulated bank has taken (once). */
export interface SimulatedBankIntakeTable {
  file_id: string
  organization_id: string
  taken: string
}

/** A file the simulated bank wrote for the connection (pain.002, camt.054): `delivered` once it reached the inbox. */
export interface SimulatedBankAnswersTable {
  id: string
  organization_id: string
  connection_id: string
  message_type: string
  content: string
  created: string
  delivered: string | null
}
