import type { LightMyRequestResponse } from 'fastify'
import { tmpdir } from 'node:os'
import { buildApp, type AppOptions } from '../../src/app.js'
import type { ApiApp } from '../../src/http/api-app.js'
import type { Credentials } from '../../src/iam/index.js'
import { createAccessKey } from '../../src/iam/index.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { createTestDatabase, type TestDatabase } from './test-database.js'

export interface TestApp {
  app: ApiApp
  db: TestDatabase
  /** Owner credentials of a fresh sandbox organization. */
  owner: Credentials
  /** A new sandbox organization with its own Owner key. */
  newOrganization(name?: string): Promise<Credentials>
  /** A new key with a built-in role in the owner's organization (or another). */
  newKey(role: string, organizationId?: string): Promise<Credentials>
  /** Sends a request through Fastify's inject, authenticated as `as` (default: the owner). */
  request(options: RequestOptions): Promise<LightMyRequestResponse>
  close(): Promise<void>
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS'
  url: string
  body?: unknown
  headers?: Record<string, string>
  as?: Credentials | null
}

export function basicAuth(credentials: Pick<Credentials, 'accessKey' | 'secret'>): string {
  return `Basic ${Buffer.from(`${credentials.accessKey}:${credentials.secret}`).toString('base64')}`
}

export async function startTestApp(
  overrides: Partial<AppOptions['config']> & Omit<Partial<AppOptions>, 'config' | 'database'> = {},
): Promise<TestApp> {
  const db = await createTestDatabase()
  const { idempotencyLeaseMilliseconds, authCacheMilliseconds, accessTokenLifetimeSeconds, webhooks, rateLimits, paymentWorkerIntervalMilliseconds = 100, ...config } = overrides
  const app = await buildApp({
    // Connection directories are made under the system's temporary folder in tests.
    config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent', bankFilesDir: tmpdir(), ...config },
    database: db.database,
    idempotencyLeaseMilliseconds,
    authCacheMilliseconds,
    accessTokenLifetimeSeconds,
    webhooks,
    rateLimits,
    paymentWorkerIntervalMilliseconds,
  })
  await app.ready()
  const owner = await createSandboxOrganization(db.database, 'Test organization')
  return {
    app,
    db,
    owner,
    newOrganization: (name = 'Other organization') => createSandboxOrganization(db.database, name),
    newKey: (role, organizationId = owner.organizationId) => createAccessKey(db.database, organizationId, role),
    request({ method, url, body, headers = {}, as = owner }) {
      const allHeaders: Record<string, string> = { ...headers }
      if (as) allHeaders.authorization ??= basicAuth(as)
      if (body !== undefined && typeof body !== 'string') allHeaders['content-type'] ??= 'application/json'
      return app.inject({
        method,
        url,
        headers: allHeaders,
        ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      })
    },
    async close() {
      await app.close()
      await db.destroy()
    },
  }
}
