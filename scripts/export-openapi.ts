/**
 * `npm run openapi`: writes docs/openapi.json from the route schemas.
 * `npm run openapi -- --check`: exits 1 when the committed file is stale, writing nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { formatOpenApiDocument, generateOpenApiDocument, OPENAPI_PATH } from './openapi-document.js'

const text = formatOpenApiDocument(await generateOpenApiDocument())
const where = relative(process.cwd(), OPENAPI_PATH)
let current: string | undefined
try {
  current = readFileSync(OPENAPI_PATH, 'utf8')
} catch {
  current = undefined
}

if (process.argv.includes('--check')) {
  if (current !== text) {
    process.stderr.write(`${where} is stale: run \`npm run openapi\` and commit the result\n`)
    process.exit(1)
  }
  process.stdout.write(`${where} is up to date\n`)
} else if (current === text) {
  process.stdout.write(`${where} is up to date\n`)
} else {
  writeFileSync(OPENAPI_PATH, text)
  process.stdout.write(`Wrote ${where}\n`)
}
