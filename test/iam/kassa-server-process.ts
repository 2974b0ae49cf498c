/**
 * Kassa in a process of its own, for the tests of what several server processes on one database share
 * (OAuth2 tokens, lockouts): its grant cache lasting AUTH_CACHE_MS.
 */
import { serveInChild } from '../support/child-server.js'

serveInChild((database) => ({
  config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent' },
  database,
  authCacheMilliseconds: Number(process.env.AUTH_CACHE_MS),
  paymentWorkerIntervalMilliseconds: false,
}))
