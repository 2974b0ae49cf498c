import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Database } from '../../src/db/database.js'
import type { ApiApp } from '../../src/http/api-app.js'
import { buildApp, type AppOptions } from '../../src/app.js'
import type { TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const COUNTERPARTIES = '/payments/v2/counterparties'

/** The minimal view of a response the checks below need: inject responses and fetch responses both fit. */
export interface SeenResponse {
  status: number
  headers: Record<string, string | undefined>
  body: string
}

export function seen(response: LightMyRequestResponse): SeenResponse {
  const headers: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(response.headers)) headers[name] = value === undefined ? undefined : String(value)
  return { status: response.statusCode, headers, body: response.body }
}

export async function seenFetch(response: Response): Promise<SeenResponse> {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
}

export interface ErrorBody {
  status: number
  code: string
  message: string
  requestId: string
  details?: { code: string; field: string; error: string }[]
  detailsOmitted?: number
}

/**
 * The one error envelope: `{status, code, message, requestId, details?}` with the status of the
 * response, a request-id header equal to `requestId`, and nothing else in it.
 */
export function expectError(response: LightMyRequestResponse | SeenResponse, status: number, code: string): ErrorBody {
  const r = 'statusCode' in response ? seen(response) : response
  expect({ status: r.status, body: r.body }).toMatchObject({ status })
  expect(r.headers['content-type']).toMatch(/^application\/json/)
  const requestId = r.headers['request-id']
  expect(requestId).toMatch(UUID)
  // Every 503 says when to come back (issue 9).
  if (status === 503) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0)
  const body = JSON.parse(r.body) as ErrorBody
  expect(body).toMatchObject({ status, code, requestId })
  expect(typeof body.message).toBe('string')
  expect(body.message.length).toBeGreaterThan(0)
  for (const key of Object.keys(body)) expect(['status', 'code', 'message', 'requestId', 'details', 'detailsOmitted']).toContain(key)
  if (body.details !== undefined) {
    expect(body.details.length).toBeGreaterThan(0)
    for (const detail of body.details) {
      expect(Object.keys(detail).sort()).toEqual(['code', 'error', 'field'])
      expect(typeof detail.code).toBe('string')
      expect(typeof detail.field).toBe('string')
      expect(typeof detail.error).toBe('string')
    }
  }
  return body
}

/** Creates a counterparty as the owner (or `as`) and returns its JSON. */
export async function createCounterparty(
  t: TestApp,
  overrides: Record<string, unknown> = {},
  as: Parameters<TestApp['request']>[0]['as'] = t.owner,
): Promise<{ id: string; etag: string; version: number; legalName: string; updated: string; [field: string]: unknown }> {
  const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(overrides), as })
  expect(response.statusCode).toBe(201)
  return response.json()
}

/** How many counterparties an organization has in the database, deleted ones included. */
export async function countCounterparties(t: TestApp, organizationId = t.owner.organizationId): Promise<number> {
  const row = await t.db.database.db
    .selectFrom('counterparties')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/**
 * Another server on `database` (the test app's, or a wrapper of it), as a second process or a
 * faulty one would be; without background workers, which the test app already runs.
 */
export function serverOn(database: Database, config: Partial<Pick<AppOptions['config'], 'maintenance' | 'logLevel'>> = {}): Promise<ApiApp> {
  return buildApp({
    config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent', ...config },
    database,
    paymentWorkerIntervalMilliseconds: false,
    webhooks: { startWorker: false },
  })
}
