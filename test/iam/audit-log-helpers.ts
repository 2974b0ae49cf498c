import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { TestApp } from '../support/test-app.js'
import { expectStatus } from './iam-helpers.js'

export const AUDIT_LOG = '/iam/v2beta/audit-log-entries'

export interface AuditEntryJson {
  id: string
  organizationId: string
  created: string
  actor: { type: 'USER' | 'ACCESS_KEY' | 'SYSTEM'; userId?: string; accessKeyId?: string; sessionId?: string }
  action: string
  resource: { type: string; id: string }
  requestId?: string
  clientAddress?: string
  before?: Record<string, unknown>
  after?: Record<string, unknown>
}

/** Every entry the query finds (following nextToken), newest first. */
export async function auditEntries(t: TestApp, query: Record<string, string> = {}, as: Credentials = t.owner): Promise<AuditEntryJson[]> {
  const items: AuditEntryJson[] = []
  let token = ''
  do {
    const search = new URLSearchParams({ ...query, limit: '500', ...(token ? { token } : {}) })
    const response = await t.request({ method: 'GET', url: `${AUDIT_LOG}?${search}`, as })
    expectStatus(response, 200)
    const page = response.json<{ items: AuditEntryJson[]; nextToken: string }>()
    items.push(...page.items)
    token = page.nextToken
  } while (token)
  return items
}

/**
 * The one entry `response`'s request wrote: exactly one (beside a key's first use, which any request may be),
 * for `action` on the resource, carrying the response's request-id and the user who made the request.
 */
export async function entryOf(
  t: TestApp,
  response: LightMyRequestResponse,
  action: string,
  resourceId: string,
  { actorUserId = t.owner.userId, reader = t.owner }: { actorUserId?: string; reader?: Credentials } = {},
): Promise<AuditEntryJson> {
  const requestId = String(response.headers['request-id'])
  const all = await auditEntries(t, {}, reader)
  const found = all.filter((entry) => entry.requestId === requestId && entry.action !== 'access_keys.first_use')
  expect(found.map((entry) => entry.action), requestId).toEqual([action])
  const entry = found[0]!
  expect(entry.resource.id).toBe(resourceId)
  expect(entry.actor).toMatchObject({ userId: actorUserId })
  expect(entry.organizationId).toBe(reader.organizationId)
  return entry
}
