/**
 * Kassa in a process of its own, for the crash test: its delivery worker fast and short-leased
 * (WEBHOOK_TIMEOUT_MS, WEBHOOK_LEASE_MS).
 * The test kills it with SIGKILL mid-delivery and starts another on the same database.
 */
import { serveInChild } from '../support/child-server.js'

serveInChild((database) => ({
  config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent', webhookAllowLoopback: true },
  database,
  webhooks: {
    retry: { initialDelayMilliseconds: 20, maxDelayMilliseconds: 100, retryForMilliseconds: 60_000 },
    pollIntervalMilliseconds: 50,
    timeoutMilliseconds: Number(process.env.WEBHOOK_TIMEOUT_MS),
    leaseMilliseconds: Number(process.env.WEBHOOK_LEASE_MS),
    concurrency: 4,
  },
}))
