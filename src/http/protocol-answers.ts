import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { rawErrorResponse } from './client-errors.js'
import { errorBody } from './error-handler.js'
import { ApiError } from './errors.js'
import { generateRequestId, REQUEST_ID_HEADER } from './request-id.js'

/**
 * HTTP that Node would answer itself, bare — an `Expect` other than 100-continue (417), CONNECT (the
 * socket closed without a word), HTTP/1.1 without `Host` (400) — answered by Kassa in the envelope with a
 * request-id, like every other answer (issue 9; found by the fuzz suite).
 */

/** Node's own Host check is off (`http.requireHostHeader`): the hook below answers in the envelope instead. */
export const protocolServerOptions = { requireHostHeader: false }

function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  const requestId = generateRequestId()
  const error = new ApiError('expectation_failed', `Expect: ${String(request.headers.expect).slice(0, 100)} is not supported; only 100-continue is`)
  const body = JSON.stringify(errorBody(error, requestId))
  response
    .writeHead(error.status, {
      [REQUEST_ID_HEADER]: requestId,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    })
    .end(request.method === 'HEAD' ? undefined : body)
}

function answerConnect(_request: IncomingMessage, socket: Socket): void {
  const error = new ApiError('method_not_allowed', 'CONNECT is not supported: Kassa is not a proxy')
  socket.end(rawErrorResponse(error, generateRequestId()))
}

export function registerProtocolAnswers(app: FastifyInstance): void {
  app.server.on('checkExpectation', answerExpectation)
  app.server.on('connect', answerConnect)
  // RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without Host.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return done()
    done(new ApiError('invalid_request', 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2)'))
  })
}
