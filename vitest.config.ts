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

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: backends.map((backend) => ({
      extends: true,
      test: {
        name: backend,
        include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
        env: { KASSA_TEST_BACKEND: backend },
      },
    })),
  },
})
