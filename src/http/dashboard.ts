import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { ApiError } from './errors.js'

/** Where the dashboard is served: its pages are paths below this one (issue 11). */
export const DASHBOARD_PATH = '/dashboard'

/**
 * The dashboard's files as `npm run build` leaves them: packages/dashboard/dist, found through the
 * workspace package, so the server finds them from src/ (tests) and dist/src/ (npm start) alike.
 */
export function builtDashboardRoot(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@kassa/dashboard/package.json')), 'dist')
}

/**
 * Nothing from another origin, and nothing inline: every script, style, image and font is a file of the
 * dashboard's own, it talks to the API of this server only (connect-src), posts forms nowhere else, and
 * no page of another site may frame it (clickjacking). Together with the session cookie's SameSite and
 * the API's CSRF check, another site can neither run code in the dashboard nor act through it.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const SECURITY_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

/** A page's query (filters, page token) belongs to the dashboard's own code: any is accepted here. */
const ANY_QUERY = { querystring: { type: 'object', additionalProperties: true }, hide: true }

/**
 * Serves the built dashboard under /dashboard: its hashed assets from /dashboard/assets/ (cached for a
 * year: a new build has new names), and index.html for /dashboard and every path below it, so a page's
 * address (/dashboard/payments?status=CREATED) can be reloaded and shared; the browser-side router then
 * shows the page. A missing asset is the API's 404. Before `npm run build` every page is a 503 that says so.
 */
export async function registerDashboard(app: FastifyInstance, root = builtDashboardRoot()): Promise<void> {
  await app.register(
    async (dashboard) => {
      dashboard.addHook('onSend', async (_request, reply, payload) => {
        reply.headers(SECURITY_HEADERS)
        return payload
      })
      // Its own 404: the server's would call a missing asset a 405, GET being a method of /dashboard/* (the pages).
      dashboard.setNotFoundHandler(async (request) => {
        const path = request.url.split('?', 1)[0]
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          throw new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: GET`, undefined, { Allow: 'GET' })
        }
        throw new ApiError('not_found', `The dashboard has no file ${path}`)
      })

      if (!existsSync(join(root, 'index.html'))) {
        const notBuilt = async () => {
          throw new ApiError('unavailable', 'The dashboard is not built: run npm run build, then start the server again')
        }
        dashboard.get('', { schema: ANY_QUERY }, notBuilt)
        dashboard.get('/*', { schema: ANY_QUERY }, notBuilt)
        return
      }

      await dashboard.register(fastifyStatic, { root: join(root, 'assets'), prefix: '/assets/', immutable: true, maxAge: '365d', index: false })
      const page = async (_request: unknown, reply: FastifyReply) =>
        reply.header('cache-control', 'no-cache').sendFile('index.html', root, { cacheControl: false })
      dashboard.get('', { schema: ANY_QUERY }, page)
      dashboard.get('/*', { schema: ANY_QUERY }, page)
    },
    { prefix: DASHBOARD_PATH },
  )
}
