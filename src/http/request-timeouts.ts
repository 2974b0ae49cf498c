import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
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

/**
 * A body being read. Its progress is the count of bytes its socket has read, sampled by the timer: no listener on
 * its data, no stream in between (issue 14: a PassThrough, a pipe and five listeners per request cost 13 µs of a
 * create's ~200 µs, measured).
 */
interface BodyWatch {
  body: IncomingMessage
  started: number
  lastByte: number
  /** The socket's bytesRead when the watch started (its headers were read before) and when last sampled: the body's bytes lie between. */
  bytesAtStart: number
  bytesRead: number
}

/** Samples the watch's socket: any byte read since the last sample moves its last byte's time. */
function sample(watch: BodyWatch, now: number): void {
  const bytesRead = watch.body.socket?.bytesRead ?? watch.bytesRead
  if (bytesRead === watch.bytesRead) return
  watch.bytesRead = bytesRead
  watch.lastByte = now
}

function tooSlow(watch: BodyWatch, now: number): string | undefined {
  if (now - watch.lastByte > BODY_IDLE_TIMEOUT_MS) return `no byte of the body arrived for ${BODY_IDLE_TIMEOUT_MS / 1000} s`
  const elapsed = now - watch.started
  if (elapsed > BODY_GRACE_MS && (watch.bytesRead - watch.bytesAtStart) / (elapsed / 1000) < BODY_MIN_BYTES_PER_SECOND) {
    return `the body arrived slower than ${BODY_MIN_BYTES_PER_SECOND} bytes per second`
  }
  return undefined
}

/**
 * Fails the reading of a body with `error`: its reader (Fastify's, or a route's parser) hears it and the answer is a
 * 408. The body is not destroyed: that would close the socket before the answer is sent.
 */
function fail(body: IncomingMessage, error: ApiError): void {
  if (body.listenerCount('error') === 0) body.on('error', () => undefined)
  body.emit('error', error)
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
}

/**
 * Every request body passes through a watch that fails it with a 408 when it stalls or dribbles. One
 * timer serves all bodies in flight. An answer sent before the body was read whole (a 401, a 408, a 413)
 * closes the connection, lingering a little (closeAfterUnreadBody): Node would otherwise keep reading, and
 * discarding, whatever the client still sends.
 */
export function registerRequestTimeouts(app: FastifyInstance): void {
  const watches = new Set<BodyWatch>()
  const timer = setInterval(() => {
    const now = Date.now()
    for (const watch of watches) {
      // A body its client abandoned (the socket closed) ended no other way.
      if (watch.body.destroyed) {
        watches.delete(watch)
        continue
      }
      sample(watch, now)
      const reason = tooSlow(watch, now)
      if (reason === undefined) continue
      watches.delete(watch)
      fail(watch.body, new ApiError('request_timeout', `The request body was not received in time: ${reason}`))
    }
  }, TIMEOUT_CHECK_INTERVAL_MS).unref()
  app.addHook('onClose', async () => clearInterval(timer))

  /** Watches the body until it has been read whole, or its answer was sent before. */
  function watch(body: IncomingMessage, reply: FastifyReply): void {
    const now = Date.now()
    const bytesAtStart = body.socket?.bytesRead ?? 0
    const watched: BodyWatch = { body, started: now, lastByte: now, bytesAtStart, bytesRead: bytesAtStart }
    watches.add(watched)
    const finished = () => watches.delete(watched)
    body.once('end', finished)
    // Once the answer is out (a 413 or 415 sent before the body was read), nobody waits for the body.
    reply.raw.once('finish', finished)
  }

  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!hasBody(request)) return done(null, payload)
    // Fastify reads no body on GET and HEAD: whatever the client sends there is never read, and the connection closes
    // after the answer, lingering as for an error's (a reset could cost the client the answer).
    if (request.method === 'GET' || request.method === 'HEAD') {
      closeAfterUnreadBody(request, reply)
      return done(null, payload)
    }
    watch(request.raw, reply)
    done(null, payload)
  })
}

/** How long a connection closed with its request's body still arriving reads on, discarding, before it is cut. */
export const LINGER_MS = 2_000

/**
 * For an error answered before its request's body was read whole (a 401, a 408, a 413): the connection closes after
 * the answer, lingering (RFC 9112 §9.6) — it half-closes once the answer is out and reads on, discarding, until the
 * client closes its side or LINGER_MS pass. Closing at once made the kernel answer the client's next bytes with a
 * reset, which can discard the answer before the client reads it: 6–50% of the 2–4 MB bodies sent to a 1 MiB limit
 * got EPIPE instead of their 413 (found by the fuzz suite across processes).
 */
export function closeAfterUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw
  if (raw.complete) return
  reply.header('connection', 'close')
  // The rest is read and dropped.
  raw.resume()
  const socket = raw.socket as Socket | null
  // node:http closes a `connection: close` answer's socket with destroySoon (light-my-request's sockets have none).
  if (typeof socket?.destroySoon !== 'function') return
  socket.destroySoon = () => {
    socket.end()
    const cut = setTimeout(() => socket.destroy(), LINGER_MS).unref()
    socket.once('close', () => clearTimeout(cut))
    socket.once('end', () => socket.destroy())
  }
}
