import { Type, type Static } from 'typebox'
import { ListQueryProperties } from '../../http/pagination.js'
import { ResourceId, Timestamp } from '../../shared/common.schemas.js'

export const FILE_DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const
export const FILE_STATUSES = ['READY', 'PENDING_WRITE', 'WRITTEN', 'PROCESSED'] as const

/** A file made for a bank (OUTBOUND) or received from one (INBOUND), as written (issue 12). */
export const BankFile = Type.Object({
  id: ResourceId,
  connectionId: ResourceId,
  direction: Type.Enum([...FILE_DIRECTIONS]),
  messageType: Type.String({ description: 'The ISO 20022 message and version, e.g. pain.001.001.09' }),
  messageId: Type.String({ description: 'The group header MsgId' }),
  status: Type.Enum([...FILE_STATUSES], {
    description: "READY: kept here (the connection has no outboxDir); PENDING_WRITE: still to be written to the connection's outboxDir; WRITTEN: it is there; PROCESSED: received from the bank and applied",
  }),
  size: Type.Integer({ minimum: 0, description: 'Bytes of the content, UTF-8' }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the content, hex' }),
  created: Timestamp,
  paymentIds: Type.Array(ResourceId, { description: 'The payments the file carries (OUTBOUND) or moved (INBOUND)' }),
})
export type BankFile = Static<typeof BankFile>

export const BankFileListQuery = Type.Object({
  ...ListQueryProperties,
  connectionId: Type.Optional(ResourceId),
  direction: Type.Optional(Type.Enum([...FILE_DIRECTIONS])),
  messageType: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
  'created[gte]': Type.Optional(Type.String({ format: 'date', description: 'Files created on or after this day (UTC), yyyy-mm-dd' })),
  'created[lte]': Type.Optional(Type.String({ format: 'date', description: 'Files created on or before this day (UTC), yyyy-mm-dd' })),
})
export type BankFileListQuery = Static<typeof BankFileListQuery>
