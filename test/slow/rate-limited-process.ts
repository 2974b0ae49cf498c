/**
 * Kassa in a process of its own, configured from its environment as `kassa serve` is — KASSA_RATE_LIMIT_PER_MINUTE,
 * KASSA_FAILED_AUTH_PER_MINUTE, REDIS_URL — for the proof that the rate limits hold across server processes
 * (rate-limits-across-server-processes.test.ts); its Redis keys under TEST_REDIS_KEY_PREFIX.
 */
import { loadConfig } from '../../src/config/config.js'
import { serveInChild } from '../support/child-server.js'

serveInChild((database) => ({
  config: { ...loadConfig(process.env), logLevel: 'silent' },
  database,
  rateLimits: { redisKeyPrefix: process.env.TEST_REDIS_KEY_PREFIX },
  paymentWorkerIntervalMilliseconds: false,
  webhooks: { startWorker: false },
}))
