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
  Timestamp,
  Version,
} from '../../shared/common.schemas.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'

/** reference §2.2 — an account the organization holds at a bank. */
export const Account = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
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
  fictive: Type.Boolean({ description: 'True for accounts at the sandbox bank' }),
  thirdPartyId: Type.Optional(Type.String({ format: 'uuid', description: 'The bank connection (/connectivity/v2/connections) through which Kassa pays from the account' })),
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

/** The fields PATCH may touch (reference §2.2: alias and metadata). */
export const AccountEditable = Type.Object(
  { alias: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), metadata: Metadata },
  { additionalProperties: false },
)

export const ACCOUNT_PATCH_RULES: readonly PatchRule[] = [
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
