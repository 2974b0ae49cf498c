import { defineConfig } from 'vitest/config'
import { SLOW_SUITES } from './vitest.config.js'

/**
 * The slow suites, `npm run test:slow`: large statement uploads measured for memory and latency, the
 * long fuzz run, the packed client, the crash proofs, the bin's process proofs and the proofs with several server processes (SLOW_SUITES). Too slow for `npm test` (kept under ten minutes); CI runs both. SQLite only unless
 * TEST_DATABASE_URL is set, as in the main suite.
 */
const postgres = process.env.TEST_DATABASE_URL
const backends = ['sqlite', ...(postgres ? ['postgres'] : [])]

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The run's id, with which the CLI proofs build the bin once per run (test/cli/cli-process.ts).
    globalSetup: ['./test/support/test-run.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    // One file at a time: these measure memory and latency, which neighbours would disturb.
    fileParallelism: false,
    projects: backends.map((backend) => ({
      extends: true,
      test: {
        name: backend,
        include: SLOW_SUITES.map((glob) => (glob.endsWith('/**') ? `${glob}/*.test.ts` : glob)),
        env: { KASSA_TEST_BACKEND: backend },
      },
    })),
  },
})
