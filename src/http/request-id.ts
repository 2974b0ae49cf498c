import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'

export const REQUEST_ID_HEADER = 'request-id'

export function generateRequestId(): string {
  return randomUUID()
}

/**
 * Every response carries `request-id`, also framework errors raised before any route runs
 * (malformed JSON, wrong content type, body too large): the header is set in the first hook.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
}
