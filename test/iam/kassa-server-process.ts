/**
 * Kassa in a process of its own, for the tests of what several server processes on one database share
 * (OAuth2 tokens, lockouts): `buildApp` on the database in DATABASE_URL, its grant cache lasting
 * AUTH_CACHE_MS, listening on loopback. Reports its port over IPC; closes on 'stop'.
 */
import { buildApp } from '../../src/app.js'
import { openDatabase } from '../../src/db/database.js'

async function main(): Promise<void> {
  const database = openDatabase(process.env.DATABASE_URL!)
  await database.migrate()
  const app = await buildApp({
    config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent' },
    database,
    authCacheMilliseconds: Number(process.env.AUTH_CACHE_MS),
    paymentWorkerIntervalMilliseconds: false,
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP')
  process.on('message', (message) => {
    if (message !== 'stop') return
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0))
  })
  process.send!({ port: address.port })
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
