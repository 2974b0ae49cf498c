/**
 * Kassa in a process of its own, as `kassa serve` runs it, for the proofs that need real processes
 * (test/slow/crash.test.ts, test/conventions/idempotency-storm.test.ts): the API with its background
 * workers — the payment worker at the sandbox pace KASSA_SANDBOX_PACE_MS, webhook delivery with a
 * schedule compressed to milliseconds and a short lease, so a delivery held by a killed process is
 * taken over within seconds. Silent unless KASSA_LOG_LEVEL names a level (`error` shows what a 500 was).
 * Started and killed by test/support/kassa-processes.ts.
 */
import type { Config } from '../../src/config/config.js'
import { serveInChild } from './child-server.js'

serveInChild((database) => ({
  config: { rateLimitPerMinute: 10_000_000, maintenance: false, logLevel: (process.env.KASSA_LOG_LEVEL ?? 'silent') as Config['logLevel'], webhookAllowLoopback: true },
  database,
  paymentWorkerIntervalMilliseconds: Number(process.env.KASSA_SANDBOX_PACE_MS ?? 1_000),
  webhooks: {
    retry: { initialDelayMilliseconds: 20, maxDelayMilliseconds: 200, retryForMilliseconds: 10 * 60_000 },
    pollIntervalMilliseconds: 50,
    timeoutMilliseconds: 1_000,
    // Past the attempt's timeout (webhookSettings requires it), short enough that a killed process's deliveries move on.
    leaseMilliseconds: 1_500,
    concurrency: 8,
  },
}))
