import Fastify from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from '../config/config.js'
import type { Database } from '../db/database.js'
import { createAuthenticator } from '../iam/authenticate.js'
import { accessKeyRoutes, roleRoutes, userRoutes } from '../iam/index.js'
import { idempotencyTestRoutes, registerIdempotency } from '../idempotency/index.js'
import { accountRoutes, balanceRoutes, sandboxRoutes, statementRoutes, transactionRoutes } from '../financial-data/index.js'
import { counterpartyRoutes, creditTransferRoutes, directDebitRoutes, externalAccountRoutes, mandateRoutes } from '../payments/index.js'
import { approvalChainRoutes } from '../payments/approvals/approval-chain.routes.js'
import { startPaymentWorker, type PaymentWorker } from '../payments/processing/index.js'
import { deliveryRoutes, registerDeliveryWorker, webhookRoutes, webhookSettings, type WebhookSettingsInput } from '../webhooks/index.js'
import type { ApiApp } from './api-app.js'
import { registerApiGuard } from './api-guard.js'
import { ApiError } from './errors.js'
import { registerErrorHandler, sendError } from './error-handler.js'
import { healthRoutes } from './health.routes.js'
import { registerJsonBodies } from './json-body.js'
import { registerMethodNotAllowed } from './method-not-allowed.js'
import { registerOpenApi } from './openapi.js'
import { SlidingWindowRateLimiter } from './rate-limiter.js'
import { generateRequestId, REQUEST_ID_HEADER, registerRequestId } from './request-id.js'
import { registerValidation } from './validation.js'

export const API_VERSION = '0.1.0'

export interface AppOptions {
  config: Pick<Config, 'rateLimitPerMinute' | 'maintenance' | 'logLevel'> & Partial<Pick<Config, 'webhookAllowLoopback'>>
  database: Database
  /** How long an Idempotency-Key stays locked by a request whose process may have died. */
  idempotencyLeaseMilliseconds?: number
  /** How long an access key's grant is cached between database reads. */
  authCacheMilliseconds?: number
  /** Webhook delivery: retry schedule, timeouts, the worker; production's defaults when omitted. */
  webhooks?: WebhookSettingsInput
  /** Pause between payment worker passes (submission, sandbox bank steps); false runs no worker. */
  paymentWorkerIntervalMilliseconds?: number | false
}

/** The HTTP application: conventions first, then every resource's routes. Wired by hand; grep finds every route. */
export async function buildApp(options: AppOptions): Promise<ApiApp> {
  const app = Fastify({
    logger: {
      level: options.config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["idempotency-key"]'],
    },
    genReqId: generateRequestId,
    // A per-request child logger carries the request id into every line; with logging off there are no lines.
    childLoggerFactory: (logger, bindings, childOptions) =>
      options.config.logLevel === 'silent' ? logger : logger.child(bindings, childOptions),
    bodyLimit: 1024 * 1024,
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
  registerErrorHandler(app)
  registerJsonBodies(app)
  registerMethodNotAllowed(app)
  const webhooks = webhookSettings(options.config.webhookAllowLoopback ?? false, options.webhooks)
  registerDeliveryWorker(app, webhooks)
  await registerOpenApi(app, API_VERSION)

  // Approved payments go to their bank from a background worker, woken at once by each approval.
  let paymentWorker: PaymentWorker | undefined
  const wakePaymentWorker = () => paymentWorker?.wake()
  app.addHook('onReady', async () => {
    const interval = options.paymentWorkerIntervalMilliseconds ?? 1_000
    if (interval !== false) paymentWorker = startPaymentWorker(options.database, {
        intervalMilliseconds: interval,
        log: app.log,
        afterChanges: () => app.webhookDeliveries.nudge(),
      })
  })
  app.addHook('onClose', async () => paymentWorker?.stop())

  healthRoutes(app)
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  await app.register(async (api: ApiApp) => {
    registerApiGuard(api, {
      maintenance: options.config.maintenance,
      authenticate: createAuthenticator(options.database.db, {
        cacheMilliseconds: options.authCacheMilliseconds ?? 5_000,
      }),
      rateLimiter: new SlidingWindowRateLimiter(options.config.rateLimitPerMinute),
    })
    registerIdempotency(api, options.database, { leaseMilliseconds: options.idempotencyLeaseMilliseconds ?? 120_000 })
    idempotencyTestRoutes(api)
    accountRoutes(api)
    transactionRoutes(api)
    balanceRoutes(api)
    sandboxRoutes(api)
    statementRoutes(api)
    counterpartyRoutes(api)
    externalAccountRoutes(api)
    creditTransferRoutes(api, wakePaymentWorker)
    mandateRoutes(api)
    directDebitRoutes(api, wakePaymentWorker)
    roleRoutes(api)
    userRoutes(api)
    accessKeyRoutes(api)
    approvalChainRoutes(api)
    webhookRoutes(api, webhooks)
    deliveryRoutes(api)
  })

  return app
}
