import cluster from 'node:cluster'
import type { Config } from './config/config.js'
import type { ApiApp } from './http/api-app.js'
import { openDatabase, type Database } from './db/database.js'
import { buildApp } from './app.js'
import { runPrimary } from './cluster.js'
import { closeOnShutdown } from './http/shutdown.js'
import { createSandboxOrganization, hasOrganizations } from './organizations/organization.service.js'

/**
 * `kassa serve`: migrate, seed a sandbox organization into an empty database (its Owner key and the
 * Owner's one-time sign-in password are printed once, here and nowhere else), then serve HTTP until SIGINT/SIGTERM —
 * in this process (`config.workers` 1), or in that many worker processes sharing the port, which the
 * primary (this process) forks once the database is ready (src/cluster.ts). A worker runs this same command
 * and only serves.
 * @returns the server of a process that serves; undefined in the primary.
 */
export async function serve(config: Config): Promise<Served | undefined> {
  const database = openDatabase(config.databaseUrl, config)
  if (cluster.isWorker) return listen(config, database)
  await prepare(database, config)
  if (config.workers === 1) return listen(config, database)
  await database.close()
  runPrimary(config)
  return undefined
}

async function prepare(database: Database, config: Config): Promise<void> {
  await database.migrate()
  if (await hasOrganizations(database)) return
  const owner = await createSandboxOrganization(database, 'Sandbox', { ownerSignIn: true })
  process.stdout.write(
    [
      'Created a sandbox organization. Its Owner access key is shown this once:',
      `  organizationId: ${owner.organizationId}`,
      `  accessKey:      ${owner.accessKey}`,
      `  secret:         ${owner.secret}`,
      `  try: curl -u ${owner.accessKey}:${owner.secret} http://${config.host}:${config.port}/financial-data/v2/accounts`,
      'Sign in as the sandbox Owner with this one-time password, shown this once (a new one is chosen at first sign-in):',
      `  email:          ${owner.signIn!.email}`,
      `  password:       ${owner.signIn!.oneTimePassword}`,
      `  at:             http://${config.host}:${config.port}/dashboard`,
      '',
    ].join('\n'),
  )
}

/** The server of this process: its app, and how to close both it and the database. */
export interface Served {
  app: ApiApp
  /** Closes the app — requests in flight finish, background workers finish their claims — and then the database. */
  close(): Promise<void>
}

/** The API in this process, with its background workers, until it is told to shut down. */
async function listen(config: Config, database: Database): Promise<Served> {
  const app = await buildApp({ config, database, paymentWorkerIntervalMilliseconds: config.sandboxPaceMilliseconds })
  // Not an onClose hook: Fastify runs those last-registered first, so the database would close before the
  // background workers' hooks (registered by buildApp) stopped them, and their last claims would fail.
  const close = async () => {
    await app.close()
    await database.close()
  }
  closeOnShutdown(app.log, close)
  await app.listen({ host: config.host, port: config.port })
  return { app, close }
}
