import { Type } from 'typebox'
import type { ApiApp } from './api-app.js'
import { ApiError } from './errors.js'

const Health = Type.Object({ status: Type.String() })

const errorResponse = (description: string) => ({ $ref: 'ErrorEnvelope#', description })

/**
 * What a probe can answer besides 200. They sit outside the API guard, so no 401, 403 or 429; what is left
 * is what any route may meet: a query parameter it does not take (validation.ts), the server closing
 * (shutdown.ts), and the 500 that leaks nothing.
 */
const PROBE_ERRORS = {
  400: errorResponse('invalid_request: a query parameter (the probes take none), or a malformed URL'),
  500: errorResponse('internal_error: unexpected server-side problem'),
  503: errorResponse('unavailable: the server is shutting down (with Retry-After)'),
}

/** Unauthenticated probes: alive, and able to reach its database. */
export function healthRoutes(app: ApiApp): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['Health'],
        summary: 'The process is alive',
        description:
          'A liveness probe: {status: ok} while the process accepts requests. It does not touch the database (see ' +
          '/readyz), so a database outage does not get a healthy process restarted. Needs no credentials.',
        response: { 200: Health, ...PROBE_ERRORS },
      },
    },
    async () => ({ status: 'ok' }),
  )
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Health'],
        summary: 'The database answers',
        description:
          'A readiness probe: {status: ok} when the database answers a query, else 503 unavailable, so that a load ' +
          'balancer sends no traffic to a server that cannot serve it. Needs no credentials.',
        response: {
          200: Health,
          ...PROBE_ERRORS,
          503: errorResponse('unavailable: the database is not reachable, or the server is shutting down (with Retry-After)'),
        },
      },
    },
    async (request) => {
      try {
        await app.database.ping()
      } catch (error) {
        request.log.warn({ err: error }, 'database unreachable')
        throw new ApiError('unavailable', 'The database is not reachable')
      }
      return { status: 'ok' }
    },
  )
}
