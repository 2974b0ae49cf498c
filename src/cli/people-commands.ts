import { InvalidArgumentError, type Command } from 'commander'
import { ApiError } from '../http/errors.js'
import { BUILTIN_ROLE_NAMES, createPerson, organizationSettings, resetPersonTotp, RoleNotFoundError, setPersonPassword } from '../iam/index.js'
import { organizationExists } from '../organizations/organization.service.js'
import type { DatabaseRunner } from './sandbox-commands.js'
import { withDatabase as withConfiguredDatabase } from './with-database.js'

export interface PeopleCommandOptions {
  /** How commands reach the database (tests pass their own). */
  withDatabase?: DatabaseRunner
  /** Where output goes (default stdout). */
  write?: (text: string) => void
  /** Standard input, whole (tests pass the password here). */
  readStdin?: () => Promise<string>
}

async function readProcessStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new Error('--password-stdin reads the password from standard input: pipe it in, e.g. from a password manager')
  let text = ''
  for await (const chunk of process.stdin) text += String(chunk)
  return text
}

/** The password as piped: one trailing line break (echo's, a file's) is not part of it. */
function passwordFrom(text: string): string {
  return text.replace(/\r?\n$/, '')
}

/** Errors as a CLI user reads them: the message, with the field's problem when it is not in it. */
function explain(error: unknown): Error {
  if (error instanceof RoleNotFoundError) return new Error(`${error.message}; the built-in roles are ${BUILTIN_ROLE_NAMES.join(', ')}`)
  if (error instanceof ApiError) return new Error(error.message)
  return error instanceof Error ? error : new Error(String(error))
}

/**
 * `kassa users …` and `kassa orgs update`: people who sign in, and the organization's sign-in setting.
 * Passwords come only from standard input (never an argument, which `ps` and shell history would show).
 *
 *   kassa users create       --org ID --name NAME --email EMAIL --role ROLE --password-stdin [--json]
 *   kassa users set-password --org ID --email EMAIL --password-stdin
 *   kassa users reset-totp   --org ID --email EMAIL
 *   kassa orgs update        --org ID --approvals-require-totp true|false
 */
export function registerPeopleCommands(program: Command, orgs: Command, options: PeopleCommandOptions = {}): void {
  const withDatabase: DatabaseRunner = options.withDatabase ?? withConfiguredDatabase
  const write = options.write ?? ((text: string) => process.stdout.write(text))
  const readStdin = options.readStdin ?? readProcessStdin
  const requireOrganization = async (database: Parameters<Parameters<DatabaseRunner>[0]>[0], organizationId: string) => {
    if (!(await organizationExists(database, organizationId))) throw new Error(`No organization ${organizationId}`)
  }

  const users = program.command('users').description('People who sign in (HUMAN users with a password)')

  users
    .command('create')
    .description('Create a person with a role (owner, admin, read-only or a custom role) and the password read from standard input')
    .requiredOption('--org <organizationId>', 'organization id')
    .requiredOption('--name <name>', 'the person’s name')
    .requiredOption('--email <email>', 'the email they sign in with')
    .requiredOption('--role <role>', 'role name')
    .requiredOption('--password-stdin', 'read the password from standard input')
    .option('--json', 'print JSON')
    .action(async (flags: { org: string; name: string; email: string; role: string; json?: boolean }) => {
      const password = passwordFrom(await readStdin())
      const user = await withDatabase(async (database) => {
        await requireOrganization(database, flags.org)
        return createPerson(database, { organizationId: flags.org, name: flags.name, email: flags.email, roleName: flags.role }, password)
      }).catch((error: unknown) => {
        throw explain(error)
      })
      const printed = { id: user.id, organizationId: user.organization_id, type: user.kind, name: user.name, email: user.email!, role: flags.role }
      if (flags.json) write(`${JSON.stringify(printed)}\n`)
      else for (const [key, value] of Object.entries(printed)) write(`${key}: ${value}\n`)
    })

  users
    .command('set-password')
    .description('Set the password of a person (read from standard input); their sessions end')
    .requiredOption('--org <organizationId>', 'organization id')
    .requiredOption('--email <email>', 'the person’s email')
    .requiredOption('--password-stdin', 'read the password from standard input')
    .action(async (flags: { org: string; email: string }) => {
      const password = passwordFrom(await readStdin())
      const user = await withDatabase(async (database) => {
        await requireOrganization(database, flags.org)
        return setPersonPassword(database, flags.org, flags.email, password)
      }).catch((error: unknown) => {
        throw explain(error)
      })
      write(`Password set for ${user.email}; their sessions have ended\n`)
    })

  users
    .command('reset-totp')
    .description('Disable TOTP for a person who lost their authenticator app; their sessions end')
    .requiredOption('--org <organizationId>', 'organization id')
    .requiredOption('--email <email>', 'the person’s email')
    .action(async (flags: { org: string; email: string }) => {
      await withDatabase(async (database) => {
        await requireOrganization(database, flags.org)
        await resetPersonTotp(database, flags.org, flags.email)
      }).catch((error: unknown) => {
        throw explain(error)
      })
      write(`TOTP disabled for ${flags.email.toLowerCase()}; their sessions have ended\n`)
    })

  orgs
    .command('update')
    .description("Change an organization's settings")
    .requiredOption('--org <organizationId>', 'organization id')
    .requiredOption('--approvals-require-totp <on>', 'true: only people signed in with a TOTP code may approve payments', (value) => {
      if (value !== 'true' && value !== 'false') throw new InvalidArgumentError('must be true or false')
      return value === 'true'
    })
    .action(async (flags: { org: string; approvalsRequireTotp: boolean }) => {
      await withDatabase(async (database) => {
        const changed = await database.transaction((trx) => organizationSettings.setApprovalsRequireSecondFactor(trx, flags.org, flags.approvalsRequireTotp))
        if (!changed) {
          throw new Error(`No organization ${flags.org}`)
        }
      })
      write(`approvalsRequireTotp: ${flags.approvalsRequireTotp}\n`)
    })
}
