import { Type, type Static } from 'typebox'
import { ResourceId } from '../../shared/common.schemas.js'
import { Amount } from '../../shared/money.js'
import { BALANCE_TYPES, REPORTED_TYPES } from '../balances/balance.schemas.js'
import { LocalDate } from '../transactions/transaction.schemas.js'
import { STATEMENT_EXAMPLE } from './statement.example.js'
import type { StatementFile } from './statement-file.js'

/**
 * The statement file itself: ISO 20022 XML, sent as application/xml or text/xml. The schema documents
 * the text on the wire; the handler receives the file as the content-type parser read it (a StatementFile).
 */
export const StatementBody = Type.Unsafe<StatementFile>({
  type: 'string',
  description: 'An ISO 20022 camt.053 (or camt.052, camt.054) document, versions .001.02 to .001.08',
  examples: [STATEMENT_EXAMPLE],
})

export const RecordedBalance = Type.Object({
  code: Type.String({ description: 'ISO 20022 balance type code the bank reported: OPBD, PRCD, CLBD, CLAV, ITBD, OPAV, ITAV' }),
  type: Type.Enum([...BALANCE_TYPES]),
  reportedType: Type.Enum([...REPORTED_TYPES]),
  amount: Amount,
  localDate: LocalDate,
})
export type RecordedBalance = Static<typeof RecordedBalance>

export const ImportedStatement = Type.Object({
  statementId: Type.String({ description: 'Stmt/Id (Rpt/Id, Ntfctn/Id)' }),
  electronicSequenceNumber: Type.Optional(Type.String()),
  accountId: ResourceId,
  iban: Type.Optional(Type.String({ description: 'Acct/Id/IBAN: the account the statement names, when it names it by IBAN' })),
  otherAccountId: Type.Optional(
    Type.String({ description: 'Acct/Id/Othr/Id: the account number the statement names instead of an IBAN (a domestic number), as written' }),
  ),
  currency: Type.String(),
  entriesFound: Type.Integer({ minimum: 0, description: 'Ntry elements in the statement' }),
  entriesNotBooked: Type.Integer({ minimum: 0, description: 'Pending or informational entries (Sts PDNG, INFO, FUTR): not booked' }),
  transactionsBooked: Type.Integer({
    minimum: 0,
    description: 'Transactions created: one per booked entry, or one per transaction detail of a batched entry that is split',
  }),
  transactionsAlreadyPresent: Type.Integer({ minimum: 0, description: 'Booked entries the account already had (same entry reference): not created again' }),
  pendingTransactionsRecorded: Type.Integer({
    minimum: 0,
    description:
      'Pending transactions created (/financial-data/v2/pending-transactions): PDNG entries with the bank\'s reference (AcctSvcrRef) ' +
      'that the account had neither pending nor booked; a later booked entry with that reference ends them',
  }),
  balances: Type.Array(RecordedBalance, { description: 'Balances recorded (a repeated report replaces the earlier one of the same day)' }),
})
export type ImportedStatement = Static<typeof ImportedStatement>

export const IMPORT_WARNINGS = ['booking_date_taken', 'before_account_history', 'before_last_statement'] as const

/** Something the import booked as the file says but that a person should know of. */
export const ImportWarning = Type.Object({
  code: Type.Enum([...IMPORT_WARNINGS], {
    description:
      "booking_date_taken: booked entries without a booking date were booked on their value date or the statement's date (their transactions' dateSource says which); " +
      "before_account_history: the statement booked transactions dated before the account's earliest one; " +
      'before_last_statement: it booked transactions dated before the period of a statement imported earlier for the account (statements out of order)',
  }),
  statementId: Type.String(),
  accountId: ResourceId,
  field: Type.String({ description: 'Where in the file, e.g. Stmt[2]' }),
  message: Type.String(),
})
export type ImportWarning = Static<typeof ImportWarning>

export const StatementImport = Type.Object({
  messageType: Type.String({ description: 'e.g. camt.053.001.02' }),
  messageId: Type.Optional(Type.String({ description: 'GrpHdr/MsgId' })),
  statementsFound: Type.Integer({ minimum: 0 }),
  transactionsBooked: Type.Integer({ minimum: 0 }),
  transactionsAlreadyPresent: Type.Integer({ minimum: 0 }),
  statements: Type.Array(ImportedStatement),
  warnings: Type.Array(ImportWarning, { description: 'What was booked but deserves a look; empty when nothing does' }),
})
export type StatementImport = Static<typeof StatementImport>
