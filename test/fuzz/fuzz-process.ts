/**
 * Kassa in a process of its own for the fuzz run across server processes (fuzz-server.ts with `processes`): the
 * app as the in-process fuzz server builds it — its background workers off, so that every write comes from a
 * fuzzed request, and webhook hosts resolved by the suite's stub DNS. It logs errors only: a 500's stack then
 * shows in the test's output beside the request the suite prints, the one place it can be read.
 */
import { tmpdir } from 'node:os'
import { serveInChild } from '../support/child-server.js'
import { resolveStub } from './stub-dns.js'

serveInChild((database) => ({
  config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'error', bankFilesDir: tmpdir() },
  database,
  paymentWorkerIntervalMilliseconds: false,
  webhooks: { resolve: resolveStub, startWorker: false },
}))
