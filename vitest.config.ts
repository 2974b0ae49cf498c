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
export const SLOW_SUITES = [
  'test/slow/**',
  'test/processes/**',
  'test/conventions/rate-limits-across-processes.test.ts',
  // The bin's own proofs spawn a `kassa` process per step (1.5 s of module loading each): 100–130 s per backend.
  'test/cli/cli.test.ts',
  // kill -9 during webhook delivery: two server processes per backend, waiting out delivery leases.
  'test/webhooks/webhooks.crash.test.ts',
]

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/test-run.ts'],
    testTimeout: 30_000,
    // Most files wait on sockets, child processes and PostgreSQL more than they compute: three at a time
    // keep a 2-core machine busy (the default, one fewer than the cores, leaves it half idle).
    maxWorkers: 3,
    // Each worker evaluates the app's modules once, not once per file: most files import the whole app through
    // test/support/test-app.ts, which cost about a second per file (the import phase was 580 of 675 s). Every file
    // starts its own app on its own database, so only module-level registrations are shared — and the files that
    // replace one (the sandbox bank's status listener) put back what they found.
    isolate: false,
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
