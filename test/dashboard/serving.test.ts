import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiApp } from '../../src/http/api-app.js'
import { RETRY_AFTER_SECONDS } from '../../src/http/errors.js'
import { DASHBOARD_CSP, registerDashboard } from '../../src/http/dashboard.js'
import { createHttpApp } from '../../src/http/http-app.js'
import { expectError } from '../conventions/expectations.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'

/**
 * How the server serves the dashboard's files (src/http/dashboard.ts), on a stand-in build in a temporary
 * folder, so this runs without `npm run build`. The pages themselves are tested in a browser: test/browser.
 */
const INDEX = '<!doctype html><title>Kassa</title><script type="module" src="/dashboard/assets/index-abc123.js"></script>'
const SCRIPT = 'console.log("dashboard")'

let db: TestDatabase
let built: ApiApp
let unbuilt: ApiApp
let folder: string

async function appServing(root: string): Promise<ApiApp> {
  const app = await createHttpApp({ logLevel: 'silent', database: db.database, version: 'test' })
  await registerDashboard(app, root)
  await app.ready()
  return app
}

beforeAll(async () => {
  db = await createTestDatabase()
  folder = mkdtempSync(join(tmpdir(), 'kassa-dashboard-'))
  mkdirSync(join(folder, 'dist', 'assets'), { recursive: true })
  writeFileSync(join(folder, 'dist', 'index.html'), INDEX)
  writeFileSync(join(folder, 'dist', 'assets', 'index-abc123.js'), SCRIPT)
  built = await appServing(join(folder, 'dist'))
  unbuilt = await appServing(join(folder, 'missing'))
})
afterAll(async () => {
  await built.close()
  await unbuilt.close()
  await db.destroy()
  rmSync(folder, { recursive: true, force: true })
})

describe('the dashboard is served under /dashboard', () => {
  it('answers /dashboard and every page below it, with any query, with index.html, revalidated on each load', async () => {
    for (const url of ['/dashboard', '/dashboard/approvals', '/dashboard/payments?status=CREATED&token=abc']) {
      const response = await built.inject({ method: 'GET', url })
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(response.body).toBe(INDEX)
    }
  })

  it('sends a Content-Security-Policy that allows nothing from other origins, nothing inline, and no framing', async () => {
    const response = await built.inject({ method: 'GET', url: '/dashboard/approvals' })
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP)
    const directives = new Map(DASHBOARD_CSP.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1).join(' ')]))
    expect(directives.get('default-src')).toBe("'none'")
    for (const fetched of ['script-src', 'style-src', 'img-src', 'font-src', 'connect-src']) expect(directives.get(fetched)).toBe("'self'")
    expect(directives.get('frame-ancestors')).toBe("'none'")
    expect(directives.get('base-uri')).toBe("'none'")
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/)
    expect(response.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' })
  })

  it('serves the hashed assets for a year, and a missing one is a 404 in the error envelope', async () => {
    const script = await built.inject({ method: 'GET', url: '/dashboard/assets/index-abc123.js' })
    expect(script.statusCode).toBe(200)
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8')
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(script.body).toBe(SCRIPT)
    const missing = expectError(await built.inject({ method: 'GET', url: '/dashboard/assets/index-gone.js' }), 404, 'not_found')
    expect(missing.message).toBe('The dashboard has no file /dashboard/assets/index-gone.js')
  })

  it('answers only GET: other methods are a 405 naming it', async () => {
    const response = await built.inject({ method: 'POST', url: '/dashboard/approvals' })
    expectError(response, 405, 'method_not_allowed')
    expect(response.headers.allow).toBe('GET')
  })

  it('is not part of the API description', async () => {
    const paths = Object.keys((built.swagger() as { paths: Record<string, unknown> }).paths)
    expect(paths.filter((path) => path.startsWith('/dashboard'))).toEqual([])
  })

  it('says how to build it when it is not built: a 503 with Retry-After on every page', async () => {
    for (const url of ['/dashboard', '/dashboard/approvals']) {
      const response = await unbuilt.inject({ method: 'GET', url })
      const body = expectError(response, 503, 'unavailable')
      expect(body.message).toBe('The dashboard is not built: run npm run build, then start the server again')
      expect(response.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS))
    }
  })
})
