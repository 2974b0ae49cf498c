import { Type, type Static } from 'typebox'
import { Etag, ExternalId, Metadata, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { AccountHolder, ServedAccountSnapshot } from '../lifecycle/payment.schemas.js'

export const DIRECT_DEBIT_SCHEMES = ['SDD_CORE', 'SDD_B2B'] as const
/**
 * CREATED: known to Kassa, sent to the bank with its first collection; ACTIVE: proven by a first
 * executed collection (or created with active: true); CANCELLED: no further collections (reference §2.9).
 */
export const MANDATE_STATUSES = ['CREATED', 'ACTIVE', 'CANCELLED'] as const
export type MandateStatus = (typeof MANDATE_STATUSES)[number]

const Reference = Type.String({ minLength: 1, maxLength: 35, pattern: "^[A-Za-z0-9/\\-?:().,'+ ]+$" })
const SignatureDate = Type.String({ format: 'date' })

/** reference §2.9 — the debtor's authorization to collect from their account. */
export const Mandate = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  externalId: Type.Optional(ExternalId),
  externalAccountId: ResourceId,
  counterpartyId: ResourceId,
  source: Type.Object(ServedAccountSnapshot.properties, { description: 'The account collected from: the external account, as it is now' }),
  sourceHolder: Type.Object(AccountHolder.properties, { description: 'Who holds it: the counterparty, as it is now' }),
  scheme: Type.Enum([...DIRECT_DEBIT_SCHEMES]),
  creditorReference: Type.String({ description: 'Creditor identifier (SEPA CI)' }),
  mandateReference: Type.String({ description: 'Unique mandate reference (UMR)' }),
  signatureDate: SignatureDate,
  status: Type.Enum([...MANDATE_STATUSES]),
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type Mandate = Static<typeof Mandate>

export const CreateMandate = Type.Object(
  {
    externalAccountId: ResourceId,
    scheme: Type.Enum([...DIRECT_DEBIT_SCHEMES]),
    creditorReference: Reference,
    mandateReference: Reference,
    signatureDate: SignatureDate,
    active: Type.Optional(Type.Boolean({ description: 'true: the bank already knows the mandate (migration)' })),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        externalAccountId: '0197a3c4-0d2e-7f61-8a53-6b7c9d1e2f40',
        scheme: 'SDD_CORE',
        creditorReference: 'DE98ZZZ09999999999',
        mandateReference: 'ACME-2025-0001',
        signatureDate: '2025-06-02',
        externalId: 'erp-mandate-0001',
      },
    ],
  },
)
export type CreateMandate = Static<typeof CreateMandate>

export const MandateListQuery = Type.Object({
  ...ListQueryProperties,
  externalAccountId: Type.Optional(ResourceId),
  counterpartyId: Type.Optional(ResourceId),
  status: Type.Optional(Type.Enum([...MANDATE_STATUSES])),
  scheme: Type.Optional(Type.Enum([...DIRECT_DEBIT_SCHEMES])),
})
export type MandateListQuery = Static<typeof MandateListQuery>
