import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { loadConfig } from '../config/config.js'
import { openDatabase, type Database } from '../db/database.js'
import { createStatementService, type StatementImport } from '../financial-data/statements/index.js'
import { ApiError } from '../http/errors.js'
import { PERMISSIONS, type Actor } from '../iam/index.js'
import { organizationExists } from '../organizations/organization.service.js'
import type { CommandContext } from '../shared/command-context.js'

/** A mistake of the person running the command: printed without a stack, exit code 1. */
export class ImportStatementError extends Error {}

/** The organization to import into: the one named, or the only one there is. */
async function resolveOrganization(database: Database, organizationId: string | undefined): Promise<string> {
  if (organizationId !== undefined) {
    if (!(await organizationExists(database, organizationId))) throw new ImportStatementError(`No organization ${organizationId}`)
    return organizationId
  }
  const rows = await database.db.selectFrom('organizations').select('id').limit(2).execute()
  if (rows.length === 0) throw new ImportStatementError('There is no organization yet; create one with `kassa orgs create`')
  if (rows.length > 1) throw new ImportStatementError('There are several organizations; choose one with --org <organizationId>')
  return rows[0]!.id
}

/** The command line acts with the organization Owner's rights, as whoever can read the database can. */
function cliContext(database: Database, organizationId: string): CommandContext {
  const actor: Actor = {
    organizationId,
    userId: 'cli',
    accessKeyId: 'cli',
    roleId: 'cli',
    roleName: 'owner',
    owner: true,
    permissions: new Set(PERMISSIONS),
  }
  return { actor, transaction: (work) => database.transaction(work) }
}

/**
 * Imports a statement file as `POST /financial-data/v2/statements` does.
 * @throws ImportStatementError (unreadable file, no such organization), ApiError (a rejected file).
 */
export async function importStatementFile(database: Database, file: string, options: { org?: string } = {}): Promise<StatementImport> {
  const xml = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new ImportStatementError(`Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`)
  })
  const organizationId = await resolveOrganization(database, options.org)
  return createStatementService(database).import(cliContext(database, organizationId), xml)
}

export function formatImportSummary(summary: StatementImport): string {
  const lines = [
    `Imported ${summary.messageType}${summary.messageId ? ` ${summary.messageId}` : ''}: ${summary.statementsFound} statement(s), ` +
      `${summary.transactionsBooked} transaction(s) booked, ${summary.transactionsAlreadyPresent} already present`,
  ]
  for (const statement of summary.statements) {
    lines.push(
      `  ${statement.statementId} ${statement.iban} (account ${statement.accountId}): ${statement.transactionsBooked} booked, ` +
        `${statement.transactionsAlreadyPresent} already present, ${statement.entriesNotBooked} pending/info entries not booked`,
    )
    for (const balance of statement.balances) {
      lines.push(`    ${balance.code} ${balance.localDate} ${balance.amount.stringValue} ${balance.amount.currency} (${balance.type}/${balance.reportedType})`)
    }
  }
  return `${lines.join('\n')}\n`
}

export function formatImportError(error: ApiError): string {
  const details = (error.details ?? []).map((detail) => `  ${detail.field}: ${detail.error}`)
  return [error.message, ...details].join('\n')
}

export interface ImportStatementCommandOptions {
  /** Opens the database to import into; DATABASE_URL (migrated first) by default. */
  openDatabase?: () => Promise<Database>
  /** Where the summary goes; stdout by default. */
  write?: (text: string) => void
}

async function defaultDatabase(): Promise<Database> {
  const database = openDatabase(loadConfig().databaseUrl)
  await database.migrate()
  return database
}

/** Registers `kassa import statement FILE [--org ORG_ID] [--json]` (creating the `import` command if needed). */
export function registerImportStatementCommand(program: Command, options: ImportStatementCommandOptions = {}): Command {
  const write = options.write ?? ((text: string) => process.stdout.write(text))
  const parent = program.commands.find((command) => command.name() === 'import') ?? program.command('import').description('Import bank files')
  return parent
    .command('statement')
    .description('Import a bank statement (ISO 20022 camt.053, camt.052 or camt.054 XML): book its entries and record its balances on the accounts its IBANs name')
    .argument('<file>', 'the statement XML file')
    .option('--org <organizationId>', 'organization to import into (default: the only organization in the database)')
    .option('--json', 'print the import summary as JSON')
    .action(async (file: string, flags: { org?: string; json?: boolean }, command: Command) => {
      const database = await (options.openDatabase ?? defaultDatabase)()
      try {
        const summary = await importStatementFile(database, file, { org: flags.org })
        write(flags.json ? `${JSON.stringify(summary)}\n` : formatImportSummary(summary))
      } catch (error) {
        if (error instanceof ApiError) command.error(formatImportError(error), { exitCode: 1, code: 'kassa.statement_rejected' })
        if (error instanceof ImportStatementError) command.error(error.message, { exitCode: 1, code: 'kassa.import_failed' })
        throw error
      } finally {
        await database.close()
      }
    })
}

