import type { Database, Executor } from '../../db/database.js'
import { invalidField } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import type { Actor } from '../actor.js'
import { redactSecrets } from './audit-redaction.js'
import { auditLogRepo, toAuditLogEntry, type AuditLogFilters } from './audit-log.repo.js'
import type { AuditActorType, AuditLogEntry, AuditLogEntryListQuery } from './audit-log.schemas.js'

/** Who acted where no Actor is at hand: a sign-in (the person, before any session), or Kassa itself. */
export interface AuditActor {
  type: AuditActorType
  organizationId: string
  userId?: string
  accessKeyId?: string
  sessionId?: string
}

/**
 * Where a change was asked for. A CommandContext is one (over HTTP it carries the request id and the client's
 * address); a sign-in builds one from its request.
 */
export interface AuditContext {
  actor: Actor | AuditActor
  requestId?: string
  clientAddress?: string
}

/** One recorded change. `before` absent for a creation, `after` for a deletion; both are redacted of secrets. */
export interface AuditEntry {
  /** `resource.verb`, stable: users.create, roles.update, access_keys.first_use, credit_transfers.approve, sign_in.failed… */
  action: string
  resourceType: string
  resourceId: string
  before?: unknown
  after?: unknown
}

function auditActorOf(actor: Actor | AuditActor): AuditActor {
  if ('type' in actor) return actor
  // A session's Actor carries the session id in accessKeyId too (it is the rate limit's unit): the log keeps them apart.
  return actor.sessionId !== undefined
    ? { type: 'USER', organizationId: actor.organizationId, userId: actor.userId, sessionId: actor.sessionId }
    : { type: 'ACCESS_KEY', organizationId: actor.organizationId, userId: actor.userId, accessKeyId: actor.accessKeyId }
}

function documentOf(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(redactSecrets(value))
}

/**
 * Appends one entry to the organization's audit log (issue 13). Call it with the transaction of the change it
 * records, so the entry commits with the change or not at all.
 */
export async function recordAuditEntry(trx: Executor, context: AuditContext, entry: AuditEntry): Promise<void> {
  const actor = auditActorOf(context.actor)
  await auditLogRepo.insert(trx, {
    id: newId(),
    organization_id: actor.organizationId,
    created: nowIso(),
    actor_type: actor.type,
    actor_user_id: actor.userId ?? null,
    actor_access_key_id: actor.accessKeyId ?? null,
    actor_session_id: actor.sessionId ?? null,
    action: entry.action,
    resource_type: entry.resourceType,
    resource_id: entry.resourceId,
    request_id: context.requestId ?? null,
    client_address: context.clientAddress ?? null,
    before: documentOf(entry.before),
    after: documentOf(entry.after),
  })
}

/** An instant of a created[…] filter as the table stores times (UTC, milliseconds), so they compare as strings. */
function instantOf(value: string | undefined): string | undefined {
  return value === undefined ? undefined : new Date(value).toISOString()
}

/** @throws ApiError invalid_request (400) naming created[gte] when the range is inverted. */
function filtersOf(query: AuditLogEntryListQuery): AuditLogFilters {
  const createdFrom = instantOf(query['created[gte]'])
  const createdTo = instantOf(query['created[lte]'])
  if (createdFrom && createdTo && createdFrom > createdTo) throw invalidField('created[gte]', 'must not be after created[lte]')
  const { actorUserId, actorAccessKeyId, action, resourceType, resourceId } = query
  return { actorUserId, actorAccessKeyId, action, resourceType, resourceId, createdFrom, createdTo }
}

/** The read side: entries are written only by recordAuditEntry, and never changed. */
export function createAuditLogService(database: Database) {
  return {
    /** Newest first. @throws ApiError invalid_request (400: an inverted range), invalid_token (400). */
    async list(actor: Actor, query: AuditLogEntryListQuery): Promise<ListEnvelopeOf<AuditLogEntry>> {
      const filters = filtersOf(query)
      const page = pageRequest(query, 'audit_log_entries', { ...filters }, ['text', 'text'])
      const rows = await auditLogRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.created, row.id], toAuditLogEntry)
    },

    /** @throws ApiError not_found (404), also for another organization's. */
    async get(actor: Actor, id: string): Promise<AuditLogEntry> {
      const row = await auditLogRepo.find(database.db, actor.organizationId, id)
      return toAuditLogEntry(requireLive(row, 'audit log entry', { id }))
    },
  }
}
