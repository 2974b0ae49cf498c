import { fileURLToPath } from 'node:url'
import { openDatabase } from '../src/db/database.js'
import { buildApp } from '../src/app.js'

/** Where the committed copy of the OpenAPI document lives. */
export const OPENAPI_PATH = fileURLToPath(new URL('../docs/openapi.json', import.meta.url))

/** The OpenAPI document exactly as `GET /openapi.json` serves it, from an app on an in-memory SQLite database. */
export async function generateOpenApiDocument(): Promise<Record<string, unknown>> {
  const database = openDatabase('sqlite::memory:')
  try {
    await database.migrate()
    // Only the routes matter here: no payment or webhook delivery worker.
    const app = await buildApp({
      config: { rateLimitPerMinute: 600, maintenance: false, logLevel: 'silent' },
      database,
      paymentWorkerIntervalMilliseconds: false,
      webhooks: { startWorker: false },
    })
    try {
      await app.ready()
      const response = await app.inject({ method: 'GET', url: '/openapi.json' })
      if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}: ${response.body}`)
      return response.json()
    } finally {
      await app.close()
    }
  } finally {
    await database.close()
  }
}

/** Stable formatting: two-space indentation, the generator's key order, a final newline. */
export function formatOpenApiDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`
}
