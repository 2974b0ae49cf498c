import { Type } from 'typebox'
import type { ApiApp } from './api-app.js'
import { ApiError } from './errors.js'

const Health = Type.Object({ status: Type.String() })

/** Unauthenticated probes: alive, and able to reach its database. */
export function healthRoutes(app: ApiApp): void {
  app.get('/healthz', { schema: { tags: ['Health'], summary: 'The process is alive', response: { 200: Health } } }, async () => ({
    status: 'ok',
  }))
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Health'],
        summary: 'The database answers',
        response: { 200: Health, 503: { $ref: 'ErrorEnvelope#' } },
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
