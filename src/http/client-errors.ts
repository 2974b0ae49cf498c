import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionError, FastifyInstance } from 'fastify'
import { errorBody } from './error-handler.js'
import { ApiError, type ErrorCode } from './errors.js'
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './request-timeouts.js'
import { generateRequestId, REQUEST_ID_HEADER } from './request-id.js'

/**
 * The request line and headers together may take this many bytes: Node's default, stated here so the
 * server (http-app.ts passes it as maxHeaderSize), the 431's message and the README say one number.
 */
export const MAX_HEADER_BYTES = 16 * 1024

/**
 * Answers to what Node refuses before Fastify sees a request — headers over MAX_HEADER_BYTES (431), headers or a
 * request too slow (408), malformed HTTP (400) — in the same envelope, with a request-id, as every
 * other answer (issue 9). The connection is closed afterwards, as Node does.
 */

const ANSWERS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: `The request headers are larger than ${MAX_HEADER_BYTES / 1024} KiB` },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: `The request was not received in time: headers within ${HEADERS_TIMEOUT_MS / 1000} s, the whole request within ${REQUEST_TIMEOUT_MS / 60_000} min`,
  },
}
const MALFORMED = { code: 'invalid_request', message: 'The request is not valid HTTP/1.1' } as const

/**
 * The raw HTTP/1.1 answer, written on the socket: there is no request or reply object to send it. The
 * answer to a HEAD request has the headers only (RFC 9110 §9.3.2), else a client reads the body as the next answer.
 */
export function rawErrorResponse(error: ApiError, requestId: string, head = false): string {
  const body = JSON.stringify(errorBody(error, requestId))
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    `${REQUEST_ID_HEADER}: ${requestId}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    head ? '' : body,
  ].join('\r\n')
}

/**
 * How long a connection answered before its request was read stays open to read (and drop) what the client still
 * sends. RFC 9112 §9.6: closing at once, with unread bytes, resets the connection, and the reset can erase the
 * answer before the client reads it (a request line of megabytes met ECONNRESET instead of its 431: issue 14).
 */
export const LINGER_MS = 2_000

/** Connections answered and half-closed, whose remaining bytes are read and dropped until LINGER_MS is over. */
const lingering = new WeakSet<Socket>()

/** Fastify's `clientErrorHandler`: `this` is the Fastify instance. */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  // Node's parser reports each further chunk of a refused request again: it is already answered.
  if (error.code === 'ECONNRESET' || socket.destroyed || lingering.has(socket)) return
  const { code, message } = ANSWERS[error.code ?? ''] ?? MALFORMED
  const requestId = generateRequestId()
  // An answer already under way (Node's request timeout firing late) cannot be replaced by another.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true
  // Node gives the bytes it failed on as a Buffer (Fastify's type says its JSON form).
  const packet: unknown = error.rawPacket
  const head = Buffer.isBuffer(packet) && packet.subarray(0, 5).toString('latin1') === 'HEAD '
  this.log.info({ requestId, code, reason: error.code }, 'client error answered before routing')
  if (!socket.writable || answering) {
    socket.destroy(error)
    return
  }
  // Half-close after the answer, read on, and close for good after LINGER_MS (RFC 9112 §9.6).
  socket.end(rawErrorResponse(new ApiError(code, message), requestId, head))
  lingering.add(socket)
  socket.setTimeout(0)
  setTimeout(() => socket.destroy(), LINGER_MS).unref()
}
