import type { ApiApp } from '../../http/api-app.js'
import { ListEnvelope } from '../../http/pagination.js'
import { errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createAuditLogService } from './audit-log.service.js'
import { AuditLogEntry, AuditLogEntryListQuery } from './audit-log.schemas.js'

const tags = ['Audit log']

/**
 * Issue 13, the audit trail: read-only. Entries are written by the changes they record (recordAuditEntry), and no
 * route changes or deletes one; the database refuses it too (migration 0021).
 */
export function auditLogRoutes(app: ApiApp): void {
  const service = createAuditLogService(app.database)

  app.get(
    '/iam/v2beta/audit-log-entries',
    {
      config: { permission: 'audit_log:read' },
      schema: {
        tags,
        summary: 'List audit log entries, newest first',
        description:
          "Who changed what in the organization's settings (users, roles, access keys, approval chains, webhooks, " +
          'connections, organization settings, passwords, sessions), approved or rejected a payment, signed in or failed ' +
          'to, and used a new access key for the first time: the actor, time, request id, and the resource before and ' +
          'after, secrets redacted. Filters: actorUserId, actorAccessKeyId, action, resourceType, resourceId, ' +
          'created[gte] and created[lte] (ISO 8601 instants). An inverted range is a 400.',
        querystring: AuditLogEntryListQuery,
        response: { 200: ListEnvelope(AuditLogEntry), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    '/iam/v2beta/audit-log-entries/:id',
    {
      config: { permission: 'audit_log:read' },
      schema: {
        tags,
        summary: 'Get an audit log entry',
        description: 'By its id, as the list shows it. Entries never change: there is no etag to compare, and no way to update or delete one.',
        params: IdParams,
        response: { 200: AuditLogEntry, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.get(request.actor!, request.params.id),
  )
}
