import { Type, type Static } from 'typebox'
import {
  AccountIdentifier,
  Address,
  Etag,
  ExternalId,
  MarketCode,
  Metadata,
  ResourceId,
  RoutingIdentifier,
  Timestamp,
  Version,
} from '../../shared/common.schemas.js'
import { Amount } from '../../shared/money.js'
import { PAYMENT_STATUSES } from './payment-status.js'

/** Shapes credit transfers and direct debits share (reference §2.1, §2.7). */

export const PaymentDate = Type.String({ format: 'date', description: 'Requested execution date, yyyy-mm-dd' })

/** The date of a new payment, and its window (reference §2.7; checked by checkExecutionDate). */
export const NewPaymentDate = Type.String({
  format: 'date',
  description:
    "Requested execution date, yyyy-mm-dd: from the business date of the own account's bank (for sandbox accounts the " +
    'sandbox clock, GET /v1/sandbox/clock) to 60 days after it',
})

/** An account as a payment names it, as stored with the payment when it is made. */
export const AccountSnapshot = Type.Object({
  type: Type.Enum(['ACCOUNT', 'EXTERNAL_ACCOUNT']),
  id: ResourceId,
  organizationId: ResourceId,
  market: MarketCode,
  currency: Type.Optional(Type.String()),
  identifiers: Type.Array(AccountIdentifier),
  bic: Type.Optional(Type.String()),
})
export type AccountSnapshot = Static<typeof AccountSnapshot>

/**
 * The snapshot as served: reference §2.1 AccountSnapshot, whose `routing` its clients require (on an own account;
 * Kassa gives it on every snapshot). Derived from `bic` when served, so payments stored before it have it too.
 */
export const ServedAccountSnapshot = Type.Object({
  ...AccountSnapshot.properties,
  routing: Type.Array(RoutingIdentifier, { description: "The bank's BIC (type BIC) when known; else empty" }),
})
export type ServedAccountSnapshot = Static<typeof ServedAccountSnapshot>

export const AccountHolder = Type.Object({
  type: Type.Enum(['COUNTERPARTY', 'ENTITY']),
  id: ResourceId,
  legalName: Type.String(),
  partyType: Type.Optional(Type.Enum(['INDIVIDUAL', 'COMPANY'])),
  address: Type.Optional(Address),
})
export type AccountHolder = Static<typeof AccountHolder>

/** reference §2.1 UserAuditInfo: who decided an approval step. */
export const UserAuditInfo = Type.Object({
  id: ResourceId,
  username: Type.String({ description: 'What the user signs in with: the email of a person, the name of a programmatic user' }),
  name: Type.String(),
})
export type UserAuditInfo = Static<typeof UserAuditInfo>

export const ApprovalStep = Type.Object({
  id: ResourceId,
  approvalChainId: Type.String({
    format: 'uuid',
    description:
      "The approval chain that added the step. A step of the Owner's, added because no chain applied, names the " +
      "organization's implicit Owner chain: an id of its own, the same for every such step of the organization, that " +
      'no chain listed at /iam/v2/approval-chains has',
  }),
  requiredRoleIds: Type.Optional(Type.Array(ResourceId)),
  requiredUserIds: Type.Optional(Type.Array(ResourceId)),
  status: Type.Enum(['PENDING', 'APPROVED', 'REJECTED']),
  approver: Type.Optional(UserAuditInfo),
  updated: Type.Optional(Timestamp),
  autoApproved: Type.Boolean(),
  allowCreatorApproval: Type.Boolean(),
})
export type ApprovalStep = Static<typeof ApprovalStep>

export const StatusReason = Type.Object({
  code: Type.String({ description: 'ISO 20022 status or return reason code, e.g. AM04, AC04' }),
  message: Type.Optional(Type.String()),
})
export type StatusReason = Static<typeof StatusReason>

/** ISO 20022 reason code CUST, "requested by customer": the statusReason of a payment a user rejected or cancelled. */
export const REQUESTED_BY_CUSTOMER = 'CUST'

/** The mandate a direct debit collects under, as it was at creation. */
export const MandateSnapshot = Type.Object({
  id: ResourceId,
  creditorReference: Type.String(),
  mandateReference: Type.String(),
  finalCollection: Type.Boolean({ description: 'Whether this is the last collection under the mandate: always false, Kassa collects recurrently' }),
  signatureDate: Type.String({ format: 'date' }),
  version: Type.Integer(),
})
export type MandateSnapshot = Static<typeof MandateSnapshot>

/** reference §2.7 CreditTransfer.batch: the batch a credit transfer was made from, and how that batch is treated. */
export const BATCH_TREATMENTS = ['INDIVIDUAL_PAYMENTS', 'BATCH'] as const
export const BatchDetails = Type.Object({
  id: ResourceId,
  treatment: Type.Enum([...BATCH_TREATMENTS], {
    description: 'INDIVIDUAL_PAYMENTS: the payment is approved on its own; BATCH: it is approved or rejected with its batch',
  }),
})
export type BatchDetails = Static<typeof BatchDetails>

/** The list filter approvableBy=me of both payment lists (payment-queries.ts, issue 11: the dashboard's Approvals). */
export const ApprovableByFilter = Type.Optional(
  Type.Literal('me', {
    description:
      "me: only CREATED payments with a PENDING approval step the caller may approve: the caller's role or user named by the " +
      "step, the payment's creator only where the step allows it, no second step of an approval chain one of whose steps the " +
      'caller approved; none without the approve permission. The organization setting that requires a TOTP sign-in to ' +
      'approve is not applied here (approving still requires it).',
  }),
)

/** The fields both payment resources carry in responses. */
export const PaymentFields = {
  id: ResourceId,
  organizationId: ResourceId,
  externalId: Type.Optional(ExternalId),
  amount: Amount,
  scheme: Type.String(),
  date: PaymentDate,
  reference: Type.String(),
  status: Type.Enum([...PAYMENT_STATUSES]),
  statusReason: Type.Optional(StatusReason),
  source: ServedAccountSnapshot,
  sourceHolder: AccountHolder,
  destination: ServedAccountSnapshot,
  destinationHolder: AccountHolder,
  approvalSteps: Type.Array(ApprovalStep),
  creatorUserId: ResourceId,
  connectionInstructionId: Type.Optional(Type.String()),
  attachedTransactions: Type.Array(Type.Object({ type: Type.Literal('TRANSACTION'), id: ResourceId })),
  batch: Type.Optional(BatchDetails),
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
}

export const ApproveBody = Type.Object(
  { approvalStepId: ResourceId },
  { additionalProperties: false, examples: [{ approvalStepId: '0197a3c6-7b1f-7c02-b3d4-5e6f7a8b9c0d' }] },
)
export const RejectBody = Type.Object(
  {
    reason: Type.Optional(
      Type.String({ maxLength: 255, description: "Why: kept as the payment's statusReason.message and the REJECTED event's message" }),
    ),
    approvalStepId: Type.Optional(
      Type.String({ description: 'Tolerated for clients of the reference API, which send it: when given, it must be a step of this payment' }),
    ),
  },
  { additionalProperties: false, examples: [{ reason: 'Duplicate of invoice 2025-0041' }] },
)
export type RejectBody = Static<typeof RejectBody>

export const CancelBody = Type.Object(
  {
    reason: Type.Optional(
      Type.String({ maxLength: 255, description: "Why: kept as the payment's statusReason.message and the CANCELLED event's message" }),
    ),
  },
  { additionalProperties: false, examples: [{ reason: 'Paid by card instead' }] },
)
export type CancelBody = Static<typeof CancelBody>
