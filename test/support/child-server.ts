import { buildApp, type AppOptions } from '../../src/app.js'
import { openDatabase, type Database } from '../../src/db/database.js'

/**
 * Kassa in a process of its own (a test forks a script that calls this): `buildApp` on the database in
 * DATABASE_URL with the options the script gives, listening on loopback. Reports its port over IPC; closes on
 * 'stop'. For the tests of what several server processes on one database share, and of crashes.
 */
export function serveInChild(options: (database: Database) => AppOptions): void {
  const main = async (): Promise<void> => {
    const database = openDatabase(process.env.DATABASE_URL!)
    await database.migrate()
    const app = await buildApp(options(database))
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
}
