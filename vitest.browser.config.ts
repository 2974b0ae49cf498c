import { defineConfig } from 'vitest/config'

/**
 * The browser suite (npm run test:browser): the dashboard in Debian's Chromium, driven by playwright-core
 * against a Kassa server listening on 127.0.0.1. One file at a time (one browser on a 2-core machine), on
 * SQLite: what it tests is the pages, the backends are covered by the main suite.
 */
export default defineConfig({
  test: {
    name: 'browser',
    include: ['test/browser/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A page answers after a request or two: poll as long as a locator waits (support/browser.ts), not 1 s.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    reporters: ['default', './test/support/summary-reporter.ts'],
    env: { KASSA_TEST_BACKEND: 'sqlite' },
  },
})
