import { Type, type Static } from 'typebox'
import {
  AccountIdentifier,
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
})
export type AccountListQuery = Static<typeof AccountListQuery>
