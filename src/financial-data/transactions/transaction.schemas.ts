import { Type, type Static } from 'typebox'
import {
  AccountIdentifier,
  CurrencyCode,
  Etag,
  MarketCode,
  Metadata,
  ResourceId,
  RoutingIdentifier,
  Timestamp,
  Version,
} from '../../shared/common.schemas.js'
import { Amount, MinorUnitsBound } from '../../shared/money.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'

import { DateFilterProperties, LocalDate } from './date-range.js'

export { LocalDate }

export const RECONCILIATION_STATUSES = ['NOT_RECONCILED', 'PARTIALLY_RECONCILED', 'RECONCILED'] as const
export const TRANSACTABLE_TYPES = ['CREDIT_TRANSFER', 'DIRECT_DEBIT', 'EXPECTED_TRANSACTION', 'PAYMENT_BATCH'] as const
export const DATE_SOURCES = ['VALUE_DATE', 'STATEMENT_DATE'] as const
export type DateSource = (typeof DATE_SOURCES)[number]

/** ISO 20022 bank transaction code (reference §2.1). */
export const BankTransactionCode = Type.Object({
  /** Absent when the bank reports only a proprietary code (camt BkTxCd/Prtry without Domn). */
  domain: Type.Optional(Type.String({ maxLength: 4 })),
  family: Type.Optional(Type.String({ maxLength: 4 })),
  subfamily: Type.Optional(Type.String({ maxLength: 4 })),
  proprietary: Type.Optional(Type.Object({ code: Type.String(), issuer: Type.Optional(Type.String()) })),
  description: Type.Optional(Type.String()),
})
export type BankTransactionCode = Static<typeof BankTransactionCode>

const CounterpartyFields = {
  partyType: Type.Optional(Type.Enum(['INDIVIDUAL', 'COMPANY'])),
  name: Type.Optional(Type.String()),
}
const CounterpartyAccountFields = {
  market: Type.Optional(MarketCode),
  identifiers: Type.Array(AccountIdentifier),
  bic: Type.Optional(Type.String()),
}

/** The other party of a booked transaction, as the bank reported it and as it is stored. */
export const TransactionCounterparty = Type.Object({
  ...CounterpartyFields,
  account: Type.Optional(
    Type.Object({
      ...CounterpartyAccountFields,
      /** An account number that is no IBAN (camt Othr/Id), as the bank gave it. */
      rawIdentifier: Type.Optional(Type.String()),
    }),
  ),
})
export type TransactionCounterparty = Static<typeof TransactionCounterparty>

/**
 * The other party as served: reference §2.1 CounterpartyDetails, whose account (CounterpartyAccount) its clients
 * require to have `identifiers` and `rawIdentifier`. Made from the stored one by toCounterpartyDetails.
 */
export const CounterpartyDetails = Type.Object({
  ...CounterpartyFields,
  account: Type.Optional(
    Type.Object({
      ...CounterpartyAccountFields,
      routing: Type.Array(RoutingIdentifier, { description: "The bank's BIC (type BIC) when reported; else empty" }),
      rawIdentifier: Type.String({
        description: 'The account number as the bank reported it: the IBAN, or another identifier; empty when it reported only the bank',
      }),
    }),
  ),
})
export type CounterpartyDetails = Static<typeof CounterpartyDetails>

export const ReturnReason = Type.Object({
  code: Type.String({ description: 'ISO 20022 return reason, e.g. AC04' }),
  description: Type.Optional(Type.String()),
})
export type ReturnReason = Static<typeof ReturnReason>

export const AttachedTransactable = Type.Object({ type: Type.Enum([...TRANSACTABLE_TYPES]), id: ResourceId })
export type AttachedTransactable = Static<typeof AttachedTransactable>

/** reference §2.3 — a transaction booked on an own account. Read-only but for metadata. */
export const Transaction = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  accountId: ResourceId,
  amount: Amount,
  date: LocalDate,
  valueDate: LocalDate,
  dateSource: Type.Optional(
    Type.Enum([...DATE_SOURCES], {
      description:
        'Present when the bank gave no booking date for the entry (ISO 20022 camt makes BookgDt optional): `date` was taken from its value date (VALUE_DATE), or, without one, from the statement it came in — the last day of its period, else the day it was created (STATEMENT_DATE). Absent when `date` is the booking date the bank reported.',
    }),
  ),
  description: Type.String(),
  reference: Type.Optional(Type.String()),
  references: Type.Object({
    endToEndId: Type.Optional(Type.String()),
    mandateReference: Type.Optional(Type.String()),
    entryReference: Type.String({ description: "The bank's own reference for the entry" }),
  }),
  counterparty: Type.Optional(CounterpartyDetails),
  bankTransactionCode: Type.Optional(BankTransactionCode),
  reconciliationStatus: Type.Enum([...RECONCILIATION_STATUSES]),
  attachedTransactables: Type.Array(AttachedTransactable),
  returned: Type.Boolean(),
  returnReason: Type.Optional(ReturnReason),
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type Transaction = Static<typeof Transaction>

export const TransactionListQuery = Type.Object({
  ...ListQueryProperties,
  accountId: Type.Optional(ResourceId),
  currency: Type.Optional(CurrencyCode),
  reconciliationStatus: Type.Optional(Type.Enum([...RECONCILIATION_STATUSES])),
  ...DateFilterProperties,
  'amount[gte]': Type.Optional(MinorUnitsBound('Minor units, signed')),
  'amount[lte]': Type.Optional(MinorUnitsBound('Minor units, signed')),
})
export type TransactionListQuery = Static<typeof TransactionListQuery>

export const TransactionEditable = Type.Object({ metadata: Metadata }, { additionalProperties: false })

export const TRANSACTION_PATCH_RULES: readonly PatchRule[] = [
  { op: 'add', path: '/metadata/*' },
  { op: 'replace', path: '/metadata/*' },
  { op: 'remove', path: '/metadata/*' },
]

/** The PATCH body: a JSON Patch within TRANSACTION_PATCH_RULES. */
export const TransactionPatchBody = {
  ...JsonPatchBody,
  examples: [[{ op: 'add', path: '/metadata/invoice', value: 'INV-2025-0042' }]],
}
