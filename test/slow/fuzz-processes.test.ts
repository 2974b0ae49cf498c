import { describe } from 'vitest'
import { defineFuzzSuite, fuzzRuns } from '../fuzz/fuzz-suite.js'
import { testBackend } from '../support/test-database.js'

/**
 * Issue 14, the fuzz suite across processes: the properties of test/fuzz/operations.fuzz.test.ts, with as many
 * runs (KASSA_FUZZ_RUNS and KASSA_FUZZ_SEED work as there), every request sent to
 * one of two server processes on one PostgreSQL database in turn, as several machines behind a load balancer
 * would get them — no 5xx, no stall, every answer in the envelope with its request-id, and a refused request
 * writes nothing whichever process took it. PostgreSQL only: SQLite is one machine's file. In `npm run test:slow`
 * (about three minutes on a busy 2-core machine):
 *   TEST_DATABASE_URL=postgres://… npx vitest run --config vitest.slow.config.ts test/slow/fuzz-processes.test.ts
 */
const postgres = testBackend() === 'postgres'
if (!postgres && !process.env.TEST_DATABASE_URL) {
  process.stdout.write('\nfuzz across two server processes SKIPPED: it needs PostgreSQL, and TEST_DATABASE_URL is not set.\n\n')
}

describe.skipIf(!postgres)('fuzz across two server processes on one PostgreSQL database (issue 14)', () => {
  defineFuzzSuite(fuzzRuns(1_500), { processes: 2 })
})
