import { Type, type Static } from 'typebox'
import { ResourceId } from '../../shared/common.schemas.js'
import { Amount } from '../../shared/money.js'
import { BALANCE_TYPES, REPORTED_TYPES } from '../balances/balance.schemas.js'
import { LocalDate } from '../transactions/transaction.schemas.js'

/** The statement file itself: ISO 20022 XML, sent as application/xml or text/xml. */
export const StatementBody = Type.String({
  description: 'An ISO 20022 camt.053 (or camt.052, camt.054) document, versions .001.02 to .001.08',
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
  iban: Type.String(),
  currency: Type.String(),
  entriesFound: Type.Integer({ minimum: 0, description: 'Ntry elements in the statement' }),
  entriesNotBooked: Type.Integer({ minimum: 0, description: 'Pending or informational entries (Sts PDNG, INFO, FUTR): not booked' }),
  transactionsBooked: Type.Integer({
    minimum: 0,
    description: 'Transactions created: one per booked entry, or one per transaction detail of a batched entry that is split',
  }),
  transactionsAlreadyPresent: Type.Integer({ minimum: 0, description: 'Booked entries the account already had (same entry reference): not created again' }),
  balances: Type.Array(RecordedBalance, { description: 'Balances recorded (a repeated report replaces the earlier one of the same day)' }),
})
export type ImportedStatement = Static<typeof ImportedStatement>

export const StatementImport = Type.Object({
  messageType: Type.String({ description: 'e.g. camt.053.001.02' }),
  messageId: Type.Optional(Type.String({ description: 'GrpHdr/MsgId' })),
  statementsFound: Type.Integer({ minimum: 0 }),
  transactionsBooked: Type.Integer({ minimum: 0 }),
  transactionsAlreadyPresent: Type.Integer({ minimum: 0 }),
  statements: Type.Array(ImportedStatement),
})
export type StatementImport = Static<typeof StatementImport>
