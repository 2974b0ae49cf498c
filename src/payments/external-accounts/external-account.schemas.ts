import { Type, type Static } from 'typebox'
import {
  AccountIdentifier,
  AccountIdentifierInput,
  Etag,
  ExternalId,
  MarketCode,
  Metadata,
  ResourceId,
  Timestamp,
  Version,
} from '../../shared/common.schemas.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'

/** reference §2.6 — a counterparty's bank account, the destination of credit transfers. */
export const ExternalAccount = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  counterpartyId: ResourceId,
  externalId: Type.Optional(ExternalId),
  market: MarketCode,
  identifiers: Type.Array(AccountIdentifier),
  alias: Type.Optional(Type.String()),
  name: Type.String({ description: 'The alias, else the account number in display form' }),
  entityIds: Type.Optional(
    Type.Array(ResourceId, { description: "Its counterparty's entityIds, inherited and read-only (reference §2.6); absent: the whole organization" }),
  ),
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type ExternalAccount = Static<typeof ExternalAccount>

export const MAX_IDENTIFIERS = 10

/** An external account as created inside a counterparty (`accounts[]`). */
export const CreateEmbeddedExternalAccount = Type.Object(
  {
    market: MarketCode,
    identifiers: Type.Array(AccountIdentifierInput, { minItems: 1, maxItems: MAX_IDENTIFIERS }),
    alias: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
)
export type CreateEmbeddedExternalAccount = Static<typeof CreateEmbeddedExternalAccount>

/** reference §2.6: an external account added to an existing counterparty (counterpartyId required on create). */
export const CreateExternalAccount = Type.Object(
  {
    counterpartyId: ResourceId,
    ...CreateEmbeddedExternalAccount.properties,
  },
  {
    additionalProperties: false,
    examples: [
      {
        counterpartyId: '0190b2a4-5c3e-7d1f-9a2b-3c4d5e6f7a8b',
        market: 'FR',
        identifiers: [{ market: 'FR', type: 'IBAN', number: 'FR1420041010050500013M02606' }],
        alias: 'Acme Paris account',
        externalId: 'erp-supplier-1042-paris',
      },
    ],
  },
)
export type CreateExternalAccount = Static<typeof CreateExternalAccount>

/** reference §6: a list filter of counterparties and external accounts, repeated as `entityIdsIn=…&entityIdsIn=…`. */
export const EntityIdsIn = Type.Optional(
  Type.Array(Type.String({ format: 'uuid' }), {
    minItems: 1,
    maxItems: 50,
    description: 'Only those whose counterparty is scoped to at least one of these entities (entityIds); repeat the parameter for several',
  }),
)

export const ExternalAccountListQuery = Type.Object({
  ...ListQueryProperties,
  counterpartyId: Type.Optional(ResourceId),
  entityIdsIn: EntityIdsIn,
})
export type ExternalAccountListQuery = Static<typeof ExternalAccountListQuery>

/** The fields PATCH may touch, and how. */
export const ExternalAccountEditable = Type.Object(
  {
    alias: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    metadata: Metadata,
  },
  { additionalProperties: false },
)
export type ExternalAccountEditable = Static<typeof ExternalAccountEditable>

export const EXTERNAL_ACCOUNT_PATCH_RULES: readonly PatchRule[] = [
  { op: 'add', path: '/alias' },
  { op: 'replace', path: '/alias' },
  { op: 'remove', path: '/alias' },
  { op: 'add', path: '/metadata/*' },
  { op: 'replace', path: '/metadata/*' },
  { op: 'remove', path: '/metadata/*' },
]

/** The PATCH body: a JSON Patch within EXTERNAL_ACCOUNT_PATCH_RULES. */
export const ExternalAccountPatchBody = {
  ...JsonPatchBody,
  examples: [[{ op: 'add', path: '/alias', value: 'Acme payroll account' }]],
}
