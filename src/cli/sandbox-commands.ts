import { Command, InvalidArgumentError } from 'commander'
import { validateIBAN } from 'ibantools'
import type { Database } from '../db/database.js'
import { sandboxBankOf, type AdvanceTarget } from '../financial-data/sandbox/index.js'
import { isLocalDate } from '../shared/calendar.js'
import { requireSandboxOrganization } from '../financial-data/sandbox/sandbox.service.js'
import { ApiError } from '../http/errors.js'
import { amountFromInput } from '../shared/money.js'
import { withDatabase as withConfiguredDatabase } from './with-database.js'

/** Runs `work` on a database: by default DATABASE_URL, migrated first and closed afterwards. */
export type DatabaseRunner = <T>(work: (database: Database) => Promise<T>) => Promise<T>

export interface SandboxCommandOptions {
  /** How commands reach the database (tests pass their own). */
  withDatabase?: DatabaseRunner
  /** Where output goes (default stdout). */
  write?: (text: string) => void
}

function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty')
  return value
}

function wholeDays(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number of days')
  return Number(value)
}

function localDate(value: string): string {
  if (!isLocalDate(value)) throw new InvalidArgumentError('must be a date, yyyy-mm-dd')
  return value
}

function iban(value: string): string {
  const normalized = value.replace(/\s+/g, '').toUpperCase()
  if (!validateIBAN(normalized).valid) throw new InvalidArgumentError('is not a valid IBAN')
  return normalized
}

function signedDecimal(value: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('must be a decimal amount such as 1500.00 or -42.50')
  return value
}

/** An ApiError as a CLI user reads it: the message, and the field at fault. */
function explain(error: unknown): string {
  if (!(error instanceof ApiError)) throw error
  const fields = (error.details ?? []).map((detail) => `${detail.field}: ${detail.error}`)
  return fields.length > 0 && !error.message.includes(fields[0]!.split(':')[0]!) ? `${error.message} (${fields.join('; ')})` : error.message
}

/**
 * `kassa sandbox …`: drives a sandbox organization's simulated bank from the command line, as
 * POST /v1/sandbox/clock:advance and POST /v1/sandbox/transactions do over HTTP.
 *
 *   kassa sandbox clock   --org ID
 *   kassa sandbox advance --org ID [--days N | --to yyyy-mm-dd]
 *   kassa sandbox inject  --org ID --account ID --amount -42.50 --description TEXT [--currency EUR]
 *                         [--date D] [--value-date D] [--reference R] [--end-to-end-id E]
 *                         [--counterparty-name N] [--counterparty-iban IBAN]
 */
export function registerSandboxCommands(program: Command, options: SandboxCommandOptions = {}): Command {
  const withDatabase: DatabaseRunner = options.withDatabase ?? withConfiguredDatabase
  const write = options.write ?? ((text: string) => process.stdout.write(text))
  const print = (value: Record<string, unknown>, json: boolean | undefined) => {
    if (json) write(`${JSON.stringify(value)}\n`)
    else for (const [key, field] of Object.entries(value)) write(`${key}: ${typeof field === 'string' ? field : JSON.stringify(field)}\n`)
  }
  const fail = (error: unknown): never => program.error(`kassa sandbox: ${explain(error)}`)

  const sandbox = program.command('sandbox').description("Drive a sandbox organization's simulated bank: its clock and injected transactions")

  sandbox
    .command('clock')
    .description("Show the sandbox bank's business date")
    .requiredOption('--org <organizationId>', 'organization id', nonEmpty)
    .option('--json', 'print JSON')
    .action(async (flags: { org: string; json?: boolean }) => {
      const clock = await withDatabase(async (database) => {
        await requireSandboxOrganization(database.db, flags.org)
        const found = await sandboxBankOf(database).clock(database.db, flags.org)
        if (!found) throw new ApiError('not_found', 'This organization has no sandbox bank')
        return found
      }).catch(fail)
      print({ ...clock }, flags.json)
    })

  sandbox
    .command('advance')
    .description('Move the clock forward (default one day) and process the payments that fall due')
    .requiredOption('--org <organizationId>', 'organization id', nonEmpty)
    .option('--days <n>', 'days to move (0 processes what is due today)', wholeDays)
    .option('--to <date>', 'date to move to (yyyy-mm-dd)', localDate)
    .option('--json', 'print JSON')
    .action(async (flags: { org: string; days?: number; to?: string; json?: boolean }) => {
      if (flags.days !== undefined && flags.to !== undefined) program.error('kassa sandbox: give --days or --to, not both')
      const target: AdvanceTarget = flags.to !== undefined ? { to: flags.to } : { days: flags.days ?? 1 }
      const step = await withDatabase(async (database) => {
        await requireSandboxOrganization(database.db, flags.org)
        return sandboxBankOf(database).advance(flags.org, target)
      }).catch(fail)
      const changes = step.reports.map((report) => ({
        paymentId: report.paymentId,
        status: report.status,
        ...(report.reason ? { reason: report.reason.code } : {}),
        bankDate: report.bankDate,
      }))
      if (flags.json) print({ organizationId: step.organizationId, previousToday: step.previousToday, today: step.today, statusChanges: changes }, true)
      else {
        write(`today: ${step.today} (was ${step.previousToday})\n`)
        for (const change of changes) write(`${change.bankDate} ${change.paymentId} ${change.status}${change.reason ? ` ${change.reason}` : ''}\n`)
      }
    })

  sandbox
    .command('inject')
    .description('Book an incoming (positive amount) or outgoing (negative amount) transaction on a sandbox account')
    .requiredOption('--org <organizationId>', 'organization id', nonEmpty)
    .requiredOption('--account <accountId>', 'sandbox account id', nonEmpty)
    .requiredOption('--amount <decimal>', 'amount in the account currency, e.g. 1500.00 or -42.50', signedDecimal)
    .requiredOption('--description <text>', 'text shown on the transaction', nonEmpty)
    .option('--currency <code>', "the account's currency (checked when given)")
    .option('--date <date>', "booking date (default: the bank's today)", localDate)
    .option('--value-date <date>', 'value date (default: the booking date)', localDate)
    .option('--reference <text>', 'remittance information')
    .option('--end-to-end-id <id>', 'end-to-end id')
    .option('--counterparty-name <name>', 'the other party')
    .option('--counterparty-iban <iban>', "the other party's IBAN", iban)
    .option('--json', 'print JSON')
    .action(
      async (flags: {
        org: string
        account: string
        amount: string
        description: string
        currency?: string
        date?: string
        valueDate?: string
        reference?: string
        endToEndId?: string
        counterpartyName?: string
        counterpartyIban?: string
        json?: boolean
      }) => {
        const transaction = await withDatabase(async (database) => {
          await requireSandboxOrganization(database.db, flags.org)
          const account = await database.db
            .selectFrom('accounts')
            .select('currency')
            .where('id', '=', flags.account)
            .where('organization_id', '=', flags.org)
            .executeTakeFirst()
          if (!account) throw new ApiError('not_found', `No account ${flags.account} in organization ${flags.org}`)
          const amount = amountFromInput({ currency: flags.currency ?? account.currency, stringValue: flags.amount }, 'amount')
          const counterpartyIban = flags.counterpartyIban
          return database.transaction((trx) =>
            sandboxBankOf(database).inject(trx, flags.org, {
              accountId: flags.account,
              amount: amount.value,
              currency: amount.currency,
              description: flags.description,
              ...(flags.date ? { date: flags.date } : {}),
              ...(flags.valueDate ? { valueDate: flags.valueDate } : {}),
              ...(flags.reference ? { reference: flags.reference } : {}),
              ...(flags.endToEndId ? { endToEndId: flags.endToEndId } : {}),
              ...(flags.counterpartyName || counterpartyIban
                ? {
                    counterparty: {
                      ...(flags.counterpartyName ? { name: flags.counterpartyName } : {}),
                      ...(counterpartyIban
                        ? { account: { market: counterpartyIban.slice(0, 2), identifiers: [{ market: counterpartyIban.slice(0, 2), type: 'IBAN', number: counterpartyIban }] } }
                        : {}),
                    },
                  }
                : {}),
            }),
          )
        }).catch(fail)
        print(
          { transactionId: transaction.id, accountId: transaction.accountId, amount: `${transaction.amount.stringValue} ${transaction.amount.currency}`, date: transaction.date },
          flags.json,
        )
      },
    )

  return sandbox
}
