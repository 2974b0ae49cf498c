import { Type, type Static } from 'typebox'
import {
  AccountIdentifier,
  AccountIdentifierInput,
  CurrencyCode,
  Etag,
  ExternalId,
  MarketCode,
  Metadata,
  ResourceId,
  RoutingIdentifier,
  Timestamp,
  Version,
} from '../../shared/common.schemas.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'

/** reference §2.2 — an account the organization holds at a bank. */
export const Account = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  entityId: Type.String({ format: 'uuid', description: 'The entity (/financial-data/v2/entities) the account belongs to' }),
  thirdPartyId: Type.String({
    format: 'uuid',
    description:
      'The bank connection (/connectivity/v2/connections) the account is held through: the FILES connection it was ' +
      "registered with, or the sandbox bank's own SANDBOX connection. An account registered without a connection " +
      "(statements only) names its bank instead: an id derived from the organization and the bank's BIC (else its " +
      'name), shared by such accounts at that bank, that is no connection',
  }),
  affiliationId: Type.String({
    format: 'uuid',
    description:
      "The relationship of the account's entity with its third party: an id derived from entityId and thirdPartyId " +
      '(UUID v5), the same for every account of the entity at that third party',
  }),
  externalId: Type.Optional(ExternalId),
  name: Type.String({ description: 'Name given by the bank' }),
  alias: Type.Optional(Type.String()),
  market: MarketCode,
  currency: CurrencyCode,
  bank: Type.Object({
    name: Type.String(),
    bic: Type.Optional(Type.String()),
  }),
  identifiers: Type.Array(AccountIdentifier),
  routing: Type.Array(RoutingIdentifier, { description: "How the bank is reached: its BIC (type BIC) when known, else empty" }),
  fictive: Type.Boolean({ description: 'True for accounts at the sandbox bank' }),
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type Account = Static<typeof Account>

export const AccountListQuery = Type.Object({
  ...ListQueryProperties,
  currency: Type.Optional(CurrencyCode),
  identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'An account number (IBAN or other), spaces and case ignored' })),
  entityId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the accounts of this entity' })),
})
export type AccountListQuery = Static<typeof AccountListQuery>

/** An own account held at a real bank, registered so its statements can be imported. */
export const CreateAccount = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'The name the bank gives the account' }),
    alias: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    market: MarketCode,
    currency: CurrencyCode,
    bank: Type.Object(
      { name: Type.String({ minLength: 1, maxLength: 140 }), bic: Type.Optional(Type.String({ pattern: '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$' })) },
      { additionalProperties: false },
    ),
    identifiers: Type.Array(AccountIdentifierInput, { minItems: 1, maxItems: 10 }),
    connectionId: Type.Optional(Type.String({ format: 'uuid', description: 'A FILES connection of the organization: payments from the account go out in its files. Shown as thirdPartyId' })),
    entityId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          "The entity the account belongs to, a live one of the organization. Default: the organization's default " +
          'entity, its oldest live entity without a parent (the one it started with, unless that was deleted)',
      }),
    ),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Business account',
        alias: 'Operations',
        market: 'DE',
        currency: 'EUR',
        bank: { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' },
        identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE02120300000000202051' }],
        externalId: 'erp-account-1000',
        metadata: { costCenter: '4711' },
      },
    ],
  },
)
export type CreateAccount = Static<typeof CreateAccount>

/** The fields PATCH may touch (reference §2.2: alias, metadata, and the entity it belongs to). */
export const AccountEditable = Type.Object(
  { alias: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), entityId: Type.String({ format: 'uuid' }), metadata: Metadata },
  { additionalProperties: false },
)

export const ACCOUNT_PATCH_RULES: readonly PatchRule[] = [
  { op: 'replace', path: '/entityId' },
  { op: 'add', path: '/alias' },
  { op: 'replace', path: '/alias' },
  { op: 'remove', path: '/alias' },
  { op: 'add', path: '/metadata/*' },
  { op: 'replace', path: '/metadata/*' },
  { op: 'remove', path: '/metadata/*' },
]

/** The PATCH body: a JSON Patch within ACCOUNT_PATCH_RULES. */
export const AccountPatchBody = {
  ...JsonPatchBody,
  examples: [[{ op: 'add', path: '/alias', value: 'Payroll' }, { op: 'add', path: '/metadata/costCenter', value: '4711' }]],
}
