/**
 * Kassa in a process of its own, for the crash test: `buildApp` with its delivery worker on the
 * database in DATABASE_URL, listening on loopback. Reports its port over IPC; closes on 'stop'.
 * The test kills it with SIGKILL mid-delivery and starts another on the same database.
 */
import { buildApp } from '../../src/app.js'
import { openDatabase } from '../../src/db/database.js'

async function main(): Promise<void> {
  const database = openDatabase(process.env.DATABASE_URL!)
  await database.migrate()
  const app = await buildApp({
    config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent', webhookAllowLoopback: true },
    database,
    webhooks: {
      retry: { initialDelayMilliseconds: 20, maxDelayMilliseconds: 100, retryForMilliseconds: 60_000 },
      pollIntervalMilliseconds: 50,
      timeoutMilliseconds: Number(process.env.WEBHOOK_TIMEOUT_MS),
      leaseMilliseconds: Number(process.env.WEBHOOK_LEASE_MS),
      concurrency: 4,
    },
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
