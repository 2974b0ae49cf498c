import { open } from 'node:fs/promises'
import type { Command } from 'commander'
import { loadConfig } from '../config/config.js'
import { openDatabase, type Database } from '../db/database.js'
import { createStatementService, type StatementImport } from '../financial-data/statements/index.js'
import { ApiError } from '../http/errors.js'
import { PERMISSIONS, type Actor } from '../iam/index.js'
import { organizationExists } from '../organizations/organization.service.js'
import type { CommandContext } from '../shared/command-context.js'
import { progressBar, type ProgressBar } from './progress-bar.js'

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

const MIB = 1024 * 1024

/**
 * An import's progress on stderr while it runs (progress-bar.ts: only on a terminal): the file read
 * and checked, by its bytes, then its transactions booked (or found already present).
 */
function importProgress(fileSize: number, stream: NodeJS.WriteStream | undefined) {
  const mib = (bytes: number) => (bytes / MIB).toFixed(1)
  let bar: ProgressBar<object> = progressBar('{bar} {percentage}% | reading and checking: {read} of {size} MiB', fileSize, { read: mib(0), size: mib(fileSize) }, stream)
  let booking = false
  return {
    read: (bytes: number) => bar.update(bytes, { read: mib(bytes), size: mib(fileSize) }),
    booked(done: number, total: number) {
      if (!booking) {
        booking = true
        bar.stop()
        bar = progressBar('{bar} {percentage}% | booking: {value}/{total} transactions', total, {}, stream)
      }
      bar.update(done, {})
    },
    stop: () => bar.stop(),
  }
}

/** The chunks of a file as they are read, telling `onBytes` how many bytes have gone by. */
async function* counted(source: AsyncIterable<Buffer>, onBytes: (bytes: number) => void): AsyncGenerator<Buffer> {
  let bytes = 0
  for await (const chunk of source) {
    bytes += chunk.length
    onBytes(bytes)
    yield chunk
  }
}

/**
 * Imports a statement file as `POST /financial-data/v2/statements` does, drawing its progress on
 * `options.progress` (stderr by default) when that is a terminal.
 * @throws ImportStatementError (unreadable file, no such organization), ApiError (a rejected file).
 */
export async function importStatementFile(database: Database, file: string, options: { org?: string; progress?: NodeJS.WriteStream } = {}): Promise<StatementImport> {
  const cannotRead = (error: NodeJS.ErrnoException) => new ImportStatementError(`Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`)
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw cannotRead(error)
  })
  const service = createStatementService(database)
  // Streamed as the server streams an upload: the file is never held whole, whatever its size.
  const stream = handle.createReadStream()
  let progress: ReturnType<typeof importProgress> | undefined
  try {
    const organizationId = await resolveOrganization(database, options.org)
    progress = importProgress((await handle.stat()).size, options.progress)
    const read = await service.read(organizationId, counted(stream, progress.read)).catch((error: unknown) => {
      throw error instanceof ApiError ? error : cannotRead(error as NodeJS.ErrnoException)
    })
    return await service.import(cliContext(database, organizationId), read, { progress: progress.booked })
  } finally {
    progress?.stop()
    stream.destroy()
  }
}

/** What an import did: per statement, what was booked, what was already there (not booked again), the balances; then the warnings. */
export function formatImportSummary(summary: StatementImport): string {
  const warnings = summary.warnings.length
  const lines = [
    `Imported ${summary.messageType}${summary.messageId ? ` ${summary.messageId}` : ''}: ${summary.statementsFound} statement(s), ` +
      `${summary.transactionsBooked} transaction(s) booked, ${summary.transactionsAlreadyPresent} already present, ${warnings} warning(s)`,
  ]
  for (const statement of summary.statements) {
    lines.push(
      `  ${statement.statementId} ${statement.iban ?? statement.otherAccountId} (account ${statement.accountId}): ${statement.transactionsBooked} booked, ` +
        `${statement.transactionsAlreadyPresent} already present, ${statement.entriesNotBooked} pending/info entries not booked`,
    )
    for (const balance of statement.balances) {
      lines.push(`    ${balance.code} ${balance.localDate} ${balance.amount.stringValue} ${balance.amount.currency} (${balance.type}/${balance.reportedType})`)
    }
  }
  if (warnings > 0) lines.push('Warnings:', ...summary.warnings.map((warning) => `  ${warning.field} ${warning.code}: ${warning.message}`))
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
  /** Where progress is drawn while the file is read and booked; stderr by default, and only a terminal gets it. */
  progress?: NodeJS.WriteStream
}

async function defaultDatabase(): Promise<Database> {
  const config = loadConfig()
  const database = openDatabase(config.databaseUrl, config)
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
        const summary = await importStatementFile(database, file, { org: flags.org, ...(options.progress ? { progress: options.progress } : {}) })
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

