import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CLIENT_TYPES_PATH, generateClientTypes } from '../../scripts/client-types.js'
import { OPENAPI_PATH } from '../../scripts/openapi-document.js'

/**
 * The client's generated types are those of the committed OpenAPI document (whose own currency
 * test/openapi/openapi.test.ts checks): together, the client always matches the routes.
 */
describe('the client’s generated types', () => {
  it('are current with docs/openapi.json (else: npm run openapi)', async () => {
    const expected = await generateClientTypes(JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')))
    const committed = readFileSync(CLIENT_TYPES_PATH, 'utf8')
    expect(committed === expected, 'packages/client/src/generated/openapi.ts is stale: run `npm run openapi` and commit the result').toBe(true)
  })
})
