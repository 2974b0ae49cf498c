import { fileURLToPath } from 'node:url'
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript'

/** Where `@kassa/client` keeps the types generated from the OpenAPI document (never edited by hand). */
export const CLIENT_TYPES_PATH = fileURLToPath(new URL('../packages/client/src/generated/openapi.ts', import.meta.url))

/** The client's types for `document`, as openapi-typescript writes them: `paths`, `components`, `operations`. */
export async function generateClientTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { silent: true })
  return `${COMMENT_HEADER}// Generated from docs/openapi.json by \`npm run openapi\`.\n\n${astToString(ast)}`
}
