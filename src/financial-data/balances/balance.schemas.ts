import { Type, type Static } from 'typebox'
import { Etag, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'
import { Amount } from '../../shared/money.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { LocalDate } from '../transactions/transaction.schemas.js'

export const BALANCE_TYPES = ['BOOKED', 'AVAILABLE'] as const
export const REPORTED_TYPES = ['OPEN', 'CLOSE', 'INTERIM'] as const

/** reference §2.4 — a balance as the bank reported it for a day. */
export const Balance = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  accountId: ResourceId,
  type: Type.Enum([...BALANCE_TYPES]),
  reportedType: Type.Enum([...REPORTED_TYPES]),
  amount: Amount,
  localDate: LocalDate,
  timestamp: Timestamp,
  version: Version,
  etag: Etag,
})
export type Balance = Static<typeof Balance>

const BalanceFilterProperties = {
  ...ListQueryProperties,
  type: Type.Optional(Type.Enum([...BALANCE_TYPES])),
  reportedType: Type.Optional(Type.Enum([...REPORTED_TYPES])),
  'date[gte]': Type.Optional(LocalDate),
  'date[lte]': Type.Optional(LocalDate),
  mostRecent: Type.Optional(Type.Boolean({ description: 'Only the latest balance of each account and type' })),
}

export const BalanceListQuery = Type.Object({ ...BalanceFilterProperties, accountId: Type.Optional(ResourceId) })
export type BalanceListQuery = Static<typeof BalanceListQuery>

export const AccountBalanceListQuery = Type.Object(BalanceFilterProperties)
export type AccountBalanceListQuery = Static<typeof AccountBalanceListQuery>
