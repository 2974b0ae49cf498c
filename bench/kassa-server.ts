/**
 * Forked by bench/transactions.ts: Kassa as `buildApp` wires it, on the database in BENCH_KASSA_DATABASE_URL
 * (already created and empty), with a fresh sandbox organization. Reports its port and the owner's
 * credentials over IPC and closes on `stop`.
 */
import { buildApp } from '../src/app.js'
import { openDatabase } from '../src/db/database.js'
import { createSandboxOrganization } from '../src/organizations/organization.service.js'
import { answerCpuRequests, type FromServer, type ToServer } from './protocol.js'

function send(message: FromServer): void {
  process.send?.(message)
}

async function main(): Promise<void> {
  const url = process.env.BENCH_KASSA_DATABASE_URL
  if (!url) throw new Error('BENCH_KASSA_DATABASE_URL is not set')
  const database = openDatabase(url)
  await database.migrate()
  const app = await buildApp({
    // Far above what one run sends in a minute, so the limiter is exercised but never refuses.
    config: { rateLimitPerMinute: 5_000_000, maintenance: false, logLevel: 'silent' },
    database,
    // BENCH_KASSA_PAYMENT_WORKER=off: no background submission or bank steps, only the API is measured.
    ...(process.env.BENCH_KASSA_PAYMENT_WORKER === 'off' ? { paymentWorkerIntervalMilliseconds: false as const } : {}),
  })
  const owner = await createSandboxOrganization(database, 'Benchmark organization')
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('Kassa is not listening on TCP')

  process.on('message', (message: ToServer) => {
    if (message.type !== 'stop') return
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0))
  })
  answerCpuRequests()
  send({ type: 'ready', port: address.port, ...owner })
}

main().catch((error: unknown) => {
  send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  process.exit(1)
})
