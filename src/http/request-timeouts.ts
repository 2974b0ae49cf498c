import { PassThrough, type Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from './errors.js'

/**
 * How long a client may take to send its request (issue 9: a body sent a byte every few seconds was
 * never timed out). A slow or stalled client gets a 408 in the envelope and its connection is closed,
 * so it holds neither a socket nor a request's memory for long.
 */

/** All headers within this time of the request's first byte (Node's headersTimeout). */
export const HEADERS_TIMEOUT_MS = 10_000
/** The whole request, body included, within this time: a backstop for the largest statement upload. */
export const REQUEST_TIMEOUT_MS = 10 * 60_000
/** A body may pause this long between bytes... */
export const BODY_IDLE_TIMEOUT_MS = 10_000
/** ...and, once past this grace period... */
export const BODY_GRACE_MS = 10_000
/** ...must have arrived at this average rate at least (a 1 MiB JSON body: 17 min at worst; a dribble: 10 s). */
export const BODY_MIN_BYTES_PER_SECOND = 1024

/** How often Node checks its headers and request timeouts, and Kassa its body watches. */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000

/** Server options for Fastify: Node's own timeouts, checked every second rather than every 30. */
export const serverTimeouts = {
  requestTimeout: REQUEST_TIMEOUT_MS,
  http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
}

interface BodyWatch {
  started: number
  lastByte: number
  received: number
  stream: PassThrough
}

function tooSlow(watch: BodyWatch, now: number): string | undefined {
  if (now - watch.lastByte > BODY_IDLE_TIMEOUT_MS) return `no byte of the body arrived for ${BODY_IDLE_TIMEOUT_MS / 1000} s`
  const elapsed = now - watch.started
  if (elapsed > BODY_GRACE_MS && watch.received / (elapsed / 1000) < BODY_MIN_BYTES_PER_SECOND) {
    return `the body arrived slower than ${BODY_MIN_BYTES_PER_SECOND} bytes per second`
  }
  return undefined
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
}

/**
 * Every request body passes through a watch that fails it with a 408 when it stalls or dribbles. One
 * timer serves all bodies in flight. An answer sent before the body was read whole (a 401, a 408, a 413)
 * closes the connection: Node would otherwise keep reading, and discarding, whatever the client still sends.
 */
export function registerRequestTimeouts(app: FastifyInstance): void {
  const watches = new Set<BodyWatch>()
  const timer = setInterval(() => {
    const now = Date.now()
    for (const watch of watches) {
      const reason = tooSlow(watch, now)
      if (reason === undefined) continue
      watches.delete(watch)
      watch.stream.destroy(new ApiError('request_timeout', `The request body was not received in time: ${reason}`))
    }
  }, TIMEOUT_CHECK_INTERVAL_MS).unref()
  app.addHook('onClose', async () => clearInterval(timer))

  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!hasBody(request)) return done(null, payload)
    // Fastify reads no body on GET and HEAD: whatever the client sends there is never read.
    if (request.method === 'GET' || request.method === 'HEAD') {
      reply.header('connection', 'close')
      return done(null, payload)
    }
    const now = Date.now()
    const watch: BodyWatch = { started: now, lastByte: now, received: 0, stream: new PassThrough() }
    watches.add(watch)
    const finished = () => watches.delete(watch)
    payload.on('data', (chunk: Buffer) => {
      watch.received += chunk.length
      watch.lastByte = Date.now()
    })
    payload.once('end', finished)
    payload.once('error', (error) => {
      finished()
      watch.stream.destroy(error)
    })
    watch.stream.once('close', finished)
    // Once the answer is out (a 413 or 415 sent before the body was read), nobody waits for the body.
    reply.raw.once('finish', finished)
    // Fastify listens for errors while it reads the body; an error after that (the body's socket failing
    // once the answer is out) is nobody's to handle and must not become an uncaught 'error' event.
    watch.stream.on('error', () => undefined)
    payload.pipe(watch.stream)
    done(null, watch.stream as Readable & typeof payload)
  })
}

/** Set on error answers: when the body was not read whole, the connection closes after the answer. */
export function closesUnreadBody(request: FastifyRequest): boolean {
  return request.raw.complete === false
}
