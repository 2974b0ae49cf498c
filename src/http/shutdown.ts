import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
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

/** What `kassa serve`'s primary process sends each worker process when it shuts down (src/cluster.ts). */
export const SHUTDOWN_MESSAGE = 'kassa:shutdown'

/**
 * Runs `close` once, on SIGINT or SIGTERM or when the primary process says so (a worker of
 * `kassa serve --workers N`), then ends the process: 0 once everything closed, 1 if closing failed.
 * Closing the app lets requests already running finish, answers late ones as above, and stops the
 * background workers, which finish the claim they hold and take no new one (their onClose hooks).
 */
export function closeOnShutdown(log: FastifyBaseLogger, close: () => Promise<void>): void {
  let closing = false
  const shutDown = (reason: string) => {
    if (closing) return
    closing = true
    log.info({ reason }, 'shutting down: finishing the requests in flight')
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'closing the server failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', () => shutDown('SIGINT'))
  process.once('SIGTERM', () => shutDown('SIGTERM'))
  process.on('message', (message) => {
    if (message === SHUTDOWN_MESSAGE) shutDown('told by the primary process')
  })
}
