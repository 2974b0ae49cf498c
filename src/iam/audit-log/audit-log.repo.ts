import type { Executor } from '../../db/database.js'
import type { AuditLogEntriesTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import type { AuditLogEntry } from './audit-log.schemas.js'

export function toAuditLogEntry(row: AuditLogEntriesTable): AuditLogEntry {
  return {
    id: row.id,
    organizationId: row.organization_id,
    created: row.created,
    actor: {
      type: row.actor_type,
      ...(row.actor_user_id !== null ? { userId: row.actor_user_id } : {}),
      ...(row.actor_access_key_id !== null ? { accessKeyId: row.actor_access_key_id } : {}),
      ...(row.actor_session_id !== null ? { sessionId: row.actor_session_id } : {}),
    },
    action: row.action,
    resource: { type: row.resource_type, id: row.resource_id },
    ...(row.request_id !== null ? { requestId: row.request_id } : {}),
    ...(row.client_address !== null ? { clientAddress: row.client_address } : {}),
    ...(row.before !== null ? { before: JSON.parse(row.before) as unknown } : {}),
    ...(row.after !== null ? { after: JSON.parse(row.after) as unknown } : {}),
  }
}

export interface AuditLogFilters {
  actorUserId?: string
  actorAccessKeyId?: string
  action?: string
  resourceType?: string
  resourceId?: string
  createdFrom?: string
  createdTo?: string
}

/** Insert and read only: the table is append-only (migration 0021's triggers refuse UPDATE and DELETE). */
export const auditLogRepo = {
  async insert(trx: Executor, row: AuditLogEntriesTable): Promise<void> {
    await trx.insertInto('audit_log_entries').values(row).execute()
  },

  async find(db: Executor, organizationId: string, id: string): Promise<AuditLogEntriesTable | undefined> {
    return db.selectFrom('audit_log_entries').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** Newest first, by created then id; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: AuditLogFilters, page: PageRequest): Promise<AuditLogEntriesTable[]> {
    let query = db.selectFrom('audit_log_entries').selectAll().where('organization_id', '=', organizationId)
    if (filters.actorUserId) query = query.where('actor_user_id', '=', filters.actorUserId)
    if (filters.actorAccessKeyId) query = query.where('actor_access_key_id', '=', filters.actorAccessKeyId)
    if (filters.action) query = query.where('action', '=', filters.action)
    if (filters.resourceType) query = query.where('resource_type', '=', filters.resourceType)
    if (filters.resourceId) query = query.where('resource_id', '=', filters.resourceId)
    if (filters.createdFrom) query = query.where('created', '>=', filters.createdFrom)
    if (filters.createdTo) query = query.where('created', '<=', filters.createdTo)
    if (page.after) query = query.where(keysetAfter(['created', 'id'], 'desc', page.after))
    return query.orderBy('created', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute()
  },
}
