import { resolve } from 'node:path'
import { DEFAULT_BANK_FILES_DIR, type Config } from './config/config.js'
import { bankFileRoutes, connectionRoutes, inboundFileRoutes } from './connectivity/index.js'
import type { Database } from './db/database.js'
import {
  accountRoutes,
  balanceRoutes,
  createImportGate,
  entityRoutes,
  pendingTransactionRoutes,
  sandboxRoutes,
  statementExportRoutes,
  statementRoutes,
  transactionRoutes,
} from './financial-data/index.js'
import type { ApiApp } from './http/api-app.js'
import { registerApiGuard, registerPublicGuard } from './http/api-guard.js'
import { registerDashboard } from './http/dashboard.js'
import { createHttpApp } from './http/http-app.js'
import { openRateLimitStore } from './http/rate-limits/index.js'
import {
  accessKeyRoutes,
  auditLogRoutes,
  createAuthenticator,
  createFailedAuthentications,
  passwordRoutes,
  requirePermission,
  roleRoutes,
  oauth2TokenRoutes,
  sessionRoutes,
  signInRoutes,
  totpRoutes,
  userRoutes,
} from './iam/index.js'
import { idempotencyTestRoutes, registerIdempotency } from './idempotency/index.js'
import {
  approvalChainReferences,
  approvalChainRoutes,
  counterpartyAccountHolders,
  counterpartyRoutes,
  creditTransferBatchRoutes,
  creditTransferRoutes,
  directDebitRoutes,
  externalAccountRoutes,
  mandateRoutes,
  reconciliationRoutes,
} from './payments/index.js'
import { startPaymentWorker, type PaymentWorker } from './payments/processing/index.js'
import { VERSION } from './version.js'
import { deliveryRoutes, registerDeliveryWorker, webhookRoutes, webhookSettings, type WebhookSettingsInput } from './webhooks/index.js'

export interface AppOptions {
  /** failedAuthenticationsPerMinute left out: no limit on failed authentications (kassa serve always sets one). */
  config: Pick<Config, 'rateLimitPerMinute' | 'maintenance' | 'logLevel'> &
    Partial<Pick<Config, 'webhookAllowLoopback' | 'bankFilesDir' | 'failedAuthenticationsPerMinute' | 'redisUrl' | 'trustProxy'>>
  database: Database
  /** How long an Idempotency-Key stays locked by a request whose process may have died. */
  idempotencyLeaseMilliseconds?: number
  /** How long an access key's grant is cached between database reads. */
  authCacheMilliseconds?: number
  /** How long a bearer token from POST /iam/v2beta/oauth2/token is accepted: 300 seconds unless given. */
  accessTokenLifetimeSeconds?: number
  /** Webhook delivery: retry schedule, timeouts, the worker; production's defaults when omitted. */
  webhooks?: WebhookSettingsInput
  /** Pause between payment worker passes (submission, sandbox bank steps); false runs no worker. */
  paymentWorkerIntervalMilliseconds?: number | false
  /** How the rate limits are shared (http/rate-limits/index.ts): production's defaults when omitted. */
  rateLimits?: { windowMs?: number; syncMilliseconds?: number; redisKeyPrefix?: string }
}

/**
 * The composition root: the HTTP plumbing (src/http), then every domain's workers and routes, wired by
 * hand with the ports each needs. Grep finds every route; nothing below src/ imports this file.
 */
export async function buildApp(options: AppOptions): Promise<ApiApp> {
  const app = await createHttpApp({
    logLevel: options.config.logLevel,
    trustProxy: options.config.trustProxy,
    database: options.database,
    version: VERSION,
  })
  const webhooks = webhookSettings(options.config.webhookAllowLoopback ?? false, options.webhooks)
  registerDeliveryWorker(app, webhooks)

  // One import at a time in the process — a statement, a bank file uploaded, or the files the payment worker finds in
  // inboxDirs: the statements' memory budget is the process's (issue 9).
  const imports = createImportGate()

  // Approved payments go to their bank from a background worker, woken at once by each approval.
  let paymentWorker: PaymentWorker | undefined
  const wakePaymentWorker = () => paymentWorker?.wake()
  app.addHook('onReady', async () => {
    const interval = options.paymentWorkerIntervalMilliseconds ?? 1_000
    // Webhook deliveries its transactions enqueue nudge the delivery worker after commit (commit-signals.ts).
    if (interval !== false) paymentWorker = startPaymentWorker(options.database, { intervalMilliseconds: interval, log: app.log, imports })
  })
  app.addHook('onClose', async () => paymentWorker?.stop())

  // The dashboard's static pages (issue 11): people sign in there and act through this same public API.
  await registerDashboard(app)

  // Every process serving this Kassa counts against the same limits: in Redis when REDIS_URL is set, else the database.
  const rateLimits = await openRateLimitStore({ ...options.rateLimits, redisUrl: options.config.redisUrl, database: options.database, log: app.log })
  app.addHook('onClose', () => rateLimits.close())
  const rateLimiter = rateLimits.limiter('requests', options.config.rateLimitPerMinute)
  // Sign-in and the OAuth2 token endpoint take no API credentials (they make them): their own scope, without
  // the API's authentication and Idempotency-Key.
  await app.register(async (publicApi: ApiApp) => {
    registerPublicGuard(publicApi, { maintenance: options.config.maintenance, rateLimiter })
    signInRoutes(publicApi)
    oauth2TokenRoutes(publicApi, { tokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? 300 })
  })

  await app.register(async (api: ApiApp) => {
    registerApiGuard(api, {
      maintenance: options.config.maintenance,
      // An access key (HTTP Basic, or a bearer token issued to it) or a signed-in person's session cookie: the same Actor either way.
      authenticate: createAuthenticator(options.database.db, {
        cacheMilliseconds: options.authCacheMilliseconds ?? 5_000,
      }),
      authorize: requirePermission,
      rateLimiter,
      ...(options.config.failedAuthenticationsPerMinute === undefined
        ? {}
        : { failedAuthentications: createFailedAuthentications(rateLimits, options.config.failedAuthenticationsPerMinute) }),
    })
    registerIdempotency(api, options.database, { leaseMilliseconds: options.idempotencyLeaseMilliseconds ?? 120_000 })
    idempotencyTestRoutes(api)
    entityRoutes(api)
    accountRoutes(api)
    transactionRoutes(api)
    pendingTransactionRoutes(api)
    balanceRoutes(api)
    sandboxRoutes(api)
    statementRoutes(api, imports)
    statementExportRoutes(api)
    connectionRoutes(api, options.config.bankFilesDir ?? resolve(DEFAULT_BANK_FILES_DIR))
    bankFileRoutes(api)
    inboundFileRoutes(api, imports)
    counterpartyRoutes(api)
    externalAccountRoutes(api, counterpartyAccountHolders)
    creditTransferRoutes(api, wakePaymentWorker)
    creditTransferBatchRoutes(api, wakePaymentWorker)
    mandateRoutes(api)
    directDebitRoutes(api, wakePaymentWorker)
    // POST /financial-data/v2/transactions/{id}:attach and :detach: the payments domain's, as they move payments too.
    reconciliationRoutes(api)
    roleRoutes(api, approvalChainReferences)
    userRoutes(api, approvalChainReferences)
    accessKeyRoutes(api)
    passwordRoutes(api)
    sessionRoutes(api)
    totpRoutes(api)
    auditLogRoutes(api)
    approvalChainRoutes(api)
    webhookRoutes(api, webhooks)
    deliveryRoutes(api)
  })

  return app
}
