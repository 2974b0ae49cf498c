/**
 * Kassa in a process of its own for the crash test (test/slow/crash.test.ts): the API only, no background workers,
 * so that what the test counts is what the requests did. The test kills it with SIGKILL under load.
 */
import { serveInChild } from '../support/child-server.js'

serveInChild((database) => ({
  config: { rateLimitPerMinute: 10_000_000, maintenance: false, logLevel: 'silent' },
  database,
  paymentWorkerIntervalMilliseconds: false,
  webhooks: { startWorker: false },
}))
