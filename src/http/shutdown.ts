import type { FastifyInstance } from 'fastify'
import { ApiError } from './errors.js'

/** What a client that calls during shutdown is told to wait before retrying elsewhere or here. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5

/**
 * Requests that arrive while the server closes (on a connection already open; no new ones are
 * accepted) get a 503 in the envelope with `request-id` and `Retry-After`, where Fastify's own
 * answer would have neither (issue 9). Requests already running finish first; the app is built with
 * `return503OnClosing: false` so that this hook, not Fastify, answers.
 */
export function registerShutdownAnswers(app: FastifyInstance): void {
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!closing) return done()
    done(new ApiError('unavailable', 'The server is shutting down; retry the request', undefined, {
      'Retry-After': String(SHUTDOWN_RETRY_AFTER_SECONDS),
    }))
  })
}
