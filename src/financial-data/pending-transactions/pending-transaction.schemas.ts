import { Type, type Static } from 'typebox'
import { CurrencyCode, Etag, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'
import { Amount } from '../../shared/money.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { DateFilterProperties, LocalDate } from '../transactions/date-range.js'
import { BankTransactionCode, CounterpartyDetails, ReturnReason } from '../transactions/transaction.schemas.js'

/**
 * How a pending transaction stands: PENDING while the bank shows it unbooked; BOOKED once the bank booked the
 * entry (the booked transaction with the same entry reference, `bookedTransactionId`); WITHDRAWN when the bank
 * dropped it without booking (e.g. the sandbox bank failing a transfer for insufficient funds, AM04).
 */
export const PENDING_TRANSACTION_STATUSES = ['PENDING', 'BOOKED', 'WITHDRAWN'] as const
export type PendingTransactionStatus = (typeof PENDING_TRANSACTION_STATUSES)[number]

/**
 * reference §2.3 PendingTransaction: the Transaction shape without reconciliation (nothing is reconciled to an
 * entry the bank has not booked), plus how it ended.
 */
export const PendingTransaction = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  accountId: ResourceId,
  amount: Amount,
  date: Type.String({
    format: 'date',
    description: 'yyyy-mm-dd, local to the account: provisional — the day the bank expects to book it (the booked transaction has the day it did)',
  }),
  valueDate: LocalDate,
  description: Type.String(),
  reference: Type.Optional(Type.String()),
  references: Type.Object({
    endToEndId: Type.Optional(Type.String()),
    mandateReference: Type.Optional(Type.String()),
    entryReference: Type.String({ description: "The bank's own reference for the entry: its booked transaction will have the same" }),
  }),
  counterparty: Type.Optional(CounterpartyDetails),
  bankTransactionCode: Type.Optional(BankTransactionCode),
  returned: Type.Boolean(),
  returnReason: Type.Optional(ReturnReason),
  status: Type.Enum([...PENDING_TRANSACTION_STATUSES], {
    description: 'PENDING while the bank shows the entry unbooked; BOOKED once it booked it (bookedTransactionId); WITHDRAWN when it dropped it unbooked',
  }),
  bookedTransactionId: Type.Optional(ResourceId),
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Type.String({ format: 'date-time', description: 'When it last changed: for an ended one, when it was booked or withdrawn' }),
})
export type PendingTransaction = Static<typeof PendingTransaction>

export const PendingTransactionListQuery = Type.Object({
  ...ListQueryProperties,
  accountId: Type.Optional(ResourceId),
  currency: Type.Optional(CurrencyCode),
  status: Type.Optional(
    Type.Enum([...PENDING_TRANSACTION_STATUSES], { description: 'Default PENDING: what the bank shows unbooked now; BOOKED or WITHDRAWN for the ended ones' }),
  ),
  ...DateFilterProperties,
})
export type PendingTransactionListQuery = Static<typeof PendingTransactionListQuery>
