import { InvalidArgumentError, type Command } from 'commander'
import { loadConfig } from '../config/config.js'
import { BUILTIN_ROLE_NAMES, createAccessKey, RoleNotFoundError } from '../iam/index.js'
import { createSandboxOrganization, organizationExists } from '../organizations/organization.service.js'
import { serve } from '../server.js'
import { registerBackupCommand } from './backup-command.js'
import { registerImportStatementCommand } from './import-statement.js'
import { registerPeopleCommands } from './people-commands.js'
import { registerSandboxCommands } from './sandbox-commands.js'
import { withDatabase } from './with-database.js'

function print(value: Record<string, string>, json: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify(value)}\n`)
  else for (const [key, field] of Object.entries(value)) process.stdout.write(`${key}: ${field}\n`)
}

function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty')
  return value
}

/**
 * The management commands, which open the database directly (or run the server), unlike the API commands
 * beside them: serve, migrate, orgs, keys, users, sandbox, import-statement, backup.
 */
export function registerManagementCommands(program: Command): void {
  program
    .command('serve')
    .description('Run the API server (HOST, PORT, DATABASE_URL, KASSA_* from the environment)')
    .option(
      '--workers <n>',
      'HTTP processes on this machine, sharing the port (default: KASSA_WORKERS, else 1). Several processes, and several ' +
        'machines running this same command, may share one PostgreSQL database; on SQLite they share the file, one writer at a time. ' +
        'SIGINT or SIGTERM lets requests in flight finish and answers later ones 503 with Retry-After',
    )
    .action(async (options: { workers?: string }) => {
      // --workers wins over KASSA_WORKERS; a worker process runs this same command line (src/cluster.ts).
      await serve(loadConfig(options.workers === undefined ? process.env : { ...process.env, KASSA_WORKERS: options.workers }))
    })

  program
    .command('migrate')
    .description('Apply database migrations and exit')
    .action(async () => {
      const applied = await withDatabase((database) => database.migrate(), { migrate: false })
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date\n')
    })

  const orgs = program.command('orgs').description('Organizations')
  orgs
    .command('create')
    .description('Create a sandbox organization and print its Owner access key')
    .requiredOption('--name <name>', 'organization name', nonEmpty)
    .option('--json', 'print JSON')
    .action(async (options: { name: string; json?: boolean }) => {
      const owner = await withDatabase((database) => createSandboxOrganization(database, options.name))
      print({ organizationId: owner.organizationId, accessKey: owner.accessKey, secret: owner.secret }, Boolean(options.json))
    })

  const keys = program.command('keys').description('Access keys')
  keys
    .command('create')
    .description('Create an access key for a new programmatic user with a role (owner, admin, read-only or a custom role)')
    .requiredOption('--org <organizationId>', 'organization id', nonEmpty)
    .requiredOption('--role <role>', 'role name', nonEmpty)
    .option('--json', 'print JSON')
    .action(async (options: { org: string; role: string; json?: boolean }) => {
      // Mistakes in the arguments end with one line on stderr (`kassa: …`), not the usage text.
      const credentials = await withDatabase(async (database) => {
        if (!(await organizationExists(database, options.org))) throw new Error(`No organization ${options.org}`)
        return createAccessKey(database, options.org, options.role)
      }).catch((error: unknown) => {
        if (error instanceof RoleNotFoundError) {
          throw new Error(`${error.message}; the built-in roles are ${BUILTIN_ROLE_NAMES.join(', ')}`)
        }
        throw error
      })
      const { organizationId, accessKey, secret, role } = credentials
      print({ organizationId, accessKey, secret, role }, Boolean(options.json))
    })

  registerPeopleCommands(program, orgs)
  registerSandboxCommands(program)
  registerImportStatementCommand(program)
  registerBackupCommand(program)
}
