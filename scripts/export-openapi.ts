/**
 * `npm run openapi`: writes docs/openapi.json from the route schemas, and the client's types generated
 * from it (packages/client/src/generated/openapi.ts).
 * `npm run openapi -- --check`: exits 1 when either committed file is stale, writing nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { CLIENT_TYPES_PATH, generateClientTypes } from './client-types.js'
import { formatOpenApiDocument, generateOpenApiDocument, OPENAPI_PATH } from './openapi-document.js'

const document = await generateOpenApiDocument()
const outputs = [
  { path: OPENAPI_PATH, text: formatOpenApiDocument(document) },
  { path: CLIENT_TYPES_PATH, text: await generateClientTypes(document) },
]

function committed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

const check = process.argv.includes('--check')
let stale = false
for (const { path, text } of outputs) {
  const where = relative(process.cwd(), path)
  if (committed(path) === text) {
    process.stdout.write(`${where} is up to date\n`)
  } else if (check) {
    process.stderr.write(`${where} is stale: run \`npm run openapi\` and commit the result\n`)
    stale = true
  } else {
    writeFileSync(path, text)
    process.stdout.write(`Wrote ${where}\n`)
  }
}
if (stale) process.exit(1)
