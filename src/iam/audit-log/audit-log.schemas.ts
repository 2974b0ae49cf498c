import { Type, type Static } from 'typebox'
import { ListQueryProperties } from '../../http/pagination.js'
import { ResourceId, Timestamp } from '../../shared/common.schemas.js'

/** USER: a person through a session; ACCESS_KEY: a key (Basic or an OAuth2 bearer token); SYSTEM: Kassa itself. */
export const AUDIT_ACTOR_TYPES = ['USER', 'ACCESS_KEY', 'SYSTEM'] as const
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number]

const Action = Type.String({
  maxLength: 100,
  description: 'What was done, `resource.verb`: e.g. users.create, roles.update, access_keys.first_use, credit_transfers.approve, sign_in.failed',
})

/** Issue 13, the audit trail: one change (or sign-in) in an organization, as it was recorded in the change's transaction. */
export const AuditLogEntry = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  created: Timestamp,
  actor: Type.Object({
    type: Type.Enum([...AUDIT_ACTOR_TYPES], { description: 'USER (signed in, a session), ACCESS_KEY, or SYSTEM' }),
    userId: Type.Optional(ResourceId),
    accessKeyId: Type.Optional(Type.String({ description: 'The access key, for type ACCESS_KEY' })),
    sessionId: Type.Optional(Type.String({ description: 'The session, for type USER' })),
  }),
  action: Action,
  resource: Type.Object({
    type: Type.String({ description: 'e.g. users, roles, access_keys, webhooks, credit_transfers, sessions' }),
    id: Type.String(),
  }),
  requestId: Type.Optional(Type.String({ description: 'The request-id header of the request that made the change' })),
  clientAddress: Type.Optional(Type.String({ description: "The client's IP address as the server saw it" })),
  before: Type.Optional(Type.Unknown({ description: 'The resource before the change, as the API showed it, secrets redacted; absent for a creation' })),
  after: Type.Optional(Type.Unknown({ description: 'The resource after the change, secrets redacted; absent for a deletion' })),
})
export type AuditLogEntry = Static<typeof AuditLogEntry>

const Instant = (description: string) => Type.String({ format: 'date-time', description })

export const AuditLogEntryListQuery = Type.Object({
  ...ListQueryProperties,
  actorUserId: Type.Optional(ResourceId),
  actorAccessKeyId: Type.Optional(Type.String({ maxLength: 100 })),
  action: Type.Optional(Action),
  resourceType: Type.Optional(Type.String({ maxLength: 100 })),
  resourceId: Type.Optional(Type.String({ maxLength: 100 })),
  'created[gte]': Type.Optional(Instant('Entries recorded at or after this time (ISO 8601)')),
  'created[lte]': Type.Optional(Instant('Entries recorded at or before this time (ISO 8601)')),
})
export type AuditLogEntryListQuery = Static<typeof AuditLogEntryListQuery>
