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
import type { PatchRule } from '../../http/json-patch.js'

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
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
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
