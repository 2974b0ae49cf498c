import { describe } from 'vitest'
import { defineFuzzSuite, fuzzRuns } from './fuzz-suite.js'

/**
 * The fuzz suite in `npm test`: every operation of docs/openapi.json, thousands of requests, under a
 * minute on SQLite. The long run (npm run test:slow) is test/slow/fuzz-long.test.ts.
 */
describe('fuzz: every operation of docs/openapi.json (issue 9)', () => {
  defineFuzzSuite(fuzzRuns(1_500))
})
