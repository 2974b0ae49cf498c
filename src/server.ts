import type { Config } from './config/config.js'
import { openDatabase } from './db/database.js'
import { buildApp } from './app.js'
import type { ApiApp } from './http/api-app.js'
import { createSandboxOrganization, hasOrganizations } from './organizations/organization.service.js'

/**
 * `kassa serve`: migrate, seed a sandbox organization into an empty database (its Owner key and the
 * Owner's one-time sign-in password are printed once, here and nowhere else), then listen until SIGINT/SIGTERM.
 */
export async function serve(config: Config): Promise<ApiApp> {
  const database = openDatabase(config.databaseUrl, config)
  await database.migrate()
  if (!(await hasOrganizations(database))) {
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
  const app = await buildApp({ config, database, paymentWorkerIntervalMilliseconds: config.sandboxPaceMilliseconds })
  app.addHook('onClose', () => database.close())
  const shutdown = () => {
    app.log.info('shutting down')
    void app.close().then(() => process.exit(0))
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
  await app.listen({ host: config.host, port: config.port })
  return app
}
