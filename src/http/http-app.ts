import Fastify from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from '../config/config.js'
import type { Database } from '../db/database.js'
import type { ApiApp } from './api-app.js'
import { answerClientError, MAX_HEADER_BYTES } from './client-errors.js'
import { ApiError } from './errors.js'
import { registerErrorHandler, sendError } from './error-handler.js'
import { healthRoutes } from './health.routes.js'
import { JSON_BODY_LIMIT, registerJsonBodies } from './json-body.js'
import { registerMethodNotAllowed } from './method-not-allowed.js'
import { registerOpenApi } from './openapi.js'
import { protocolServerOptions, registerProtocolAnswers } from './protocol-answers.js'
import { generateRequestId, REQUEST_ID_HEADER, registerRequestId } from './request-id.js'
import { registerRequestTimeouts, serverTimeouts } from './request-timeouts.js'
import { registerShutdownAnswers } from './shutdown.js'
import { registerValidation } from './validation.js'

export interface HttpAppOptions {
  logLevel: Config['logLevel']
  /** KASSA_TRUST_PROXY: the proxies whose X-Forwarded-For/-Proto become request.ip/protocol; none when left out. */
  trustProxy?: Config['trustProxy']
  database: Database
  /** The OpenAPI document's info.version. */
  version: string
}

/**
 * The HTTP plumbing every route shares, and nothing of any domain: validation, request ids, timeouts,
 * the error envelope, JSON bodies, 405s, the OpenAPI document and the health probes. The composition
 * root (src/app.ts) adds the domains' routes and workers on top.
 */
export async function createHttpApp(options: HttpAppOptions): Promise<ApiApp> {
  const app = Fastify({
    logger: {
      level: options.logLevel,
      // Credentials never reach a log line: Basic secrets, session cookies (as sent and as set), CSRF tokens.
      redact: [
        'req.headers.authorization',
        'req.headers["idempotency-key"]',
        'req.headers.cookie',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
      ],
    },
    genReqId: generateRequestId,
    // A per-request child logger carries the request id into every line; with logging off there are no lines.
    childLoggerFactory: (logger, bindings, childOptions) =>
      options.logLevel === 'silent' ? logger : logger.child(bindings, childOptions),
    bodyLimit: JSON_BODY_LIMIT,
    ...serverTimeouts,
    http: { ...serverTimeouts.http, ...protocolServerOptions, maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler: answerClientError,
    return503OnClosing: false,
    // Behind a TLS-terminating proxy the socket's peer is the proxy: only the proxies named are believed about the client.
    trustProxy: options.trustProxy?.length ? options.trustProxy : false,
    // Malformed URLs are rejected before any hook runs; they still get the envelope and a request-id.
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id)
      sendError(new ApiError('invalid_request', error.message), request, reply)
    },
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.decorate('database', options.database)
  app.decorateRequest('actor', undefined)
  app.decorateRequest('idempotencyKey', undefined)
  registerValidation(app)
  registerRequestId(app)
  registerShutdownAnswers(app)
  registerProtocolAnswers(app)
  registerRequestTimeouts(app)
  registerErrorHandler(app)
  registerJsonBodies(app)
  registerMethodNotAllowed(app)
  await registerOpenApi(app, options.version)
  healthRoutes(app)
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  return app
}
