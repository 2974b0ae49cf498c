import { describe } from 'vitest'
import { defineFuzzSuite, fuzzRuns } from '../fuzz/fuzz-suite.js'

/**
 * The long fuzz run of `npm run test:slow`: the properties of test/fuzz/operations.fuzz.test.ts with
 * seven times the runs (about five minutes on SQLite on a busy 2-core machine). KASSA_FUZZ_RUNS and
 * KASSA_FUZZ_SEED work as there.
 */
describe('fuzz, long run: every operation of docs/openapi.json (issue 9)', () => {
  defineFuzzSuite(fuzzRuns(10_000))
})
