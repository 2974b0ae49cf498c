import { Type, type Static } from 'typebox'
import { ResourceId, Timestamp } from '../shared/common.schemas.js'

export const EVENT_TYPES = ['CREATED', 'UPDATED', 'DELETED'] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** The system itself, as an event originator (besides user ids and BANK). */
export const SYSTEM_ORIGINATOR = 'KASSA'

/** reference §2.11 */
export const Event = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'Sequential per entity' }),
  organizationId: ResourceId,
  entityId: ResourceId,
  type: Type.Enum([...EVENT_TYPES]),
  name: Type.String({ description: 'What happened, e.g. CREATED, UPDATED, FULLY_APPROVED, SENT_TO_BANK' }),
  timestamp: Timestamp,
  originator: Type.String({ description: 'User id, BANK, or KASSA for the system' }),
  message: Type.Optional(Type.String()),
  entityVersion: Type.Integer({ minimum: 1, description: 'Version of the entity after the event' }),
})
export type Event = Static<typeof Event>
