import { defineConfig } from 'vitest/config'

/**
 * The whole suite runs once per backend: always on SQLite, and on PostgreSQL when
 * TEST_DATABASE_URL is set (each test file then gets a database of its own).
 */
const postgres = process.env.TEST_DATABASE_URL
if (!postgres) {
  process.stdout.write('\nPostgreSQL backend tests SKIPPED: TEST_DATABASE_URL is not set (only SQLite runs).\n\n')
}

const backends = ['sqlite', ...(postgres ? ['postgres'] : [])]

/**
 * The CLI's API commands talk HTTP to a server, as any client does: what they test is the CLI, the same on
 * either backend (whose API behaviour the other files cover), so they run once, on SQLite.
 */
const SQLITE_ONLY = ['test/cli/api-*.test.ts', 'test/cli/credit-transfers-csv.test.ts']

/**
 * Kept out of `npm test` (under ten minutes) and run by `npm run test:slow` (vitest.slow.config.ts): each of the
 * process proofs starts several `kassa serve` processes, compiling the app in each, for a minute or more per backend.
 */
export const SLOW_SUITES = ['test/slow/**', 'test/processes/**', 'test/conventions/rate-limits-across-processes.test.ts']

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/test-run.ts'],
    testTimeout: 30_000,
    // Most files wait on sockets, child processes and PostgreSQL more than they compute: three at a time
    // keep a 2-core machine busy (the default, one fewer than the cores, leaves it half idle).
    maxWorkers: 3,
    hookTimeout: 30_000,
    projects: backends.map((backend) => ({
      extends: true,
      test: {
        name: backend,
        // The dashboard's pure logic (formatting, approval rules) is unit-tested here too; its pages in test/browser.
        include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'packages/dashboard/src/**/*.test.ts'],
        // The slow suites (large uploads, the long fuzz run, the proofs that start several `kassa serve` processes)
        // have their own run: npm run test:slow; the browser suite (a real Chromium) its own too: npm run test:browser.
        exclude: [...SLOW_SUITES, 'test/browser/**', '**/node_modules/**', ...(backend === 'sqlite' ? [] : SQLITE_ONLY)],
        env: { KASSA_TEST_BACKEND: backend },
      },
    })),
  },
})
