import type { Database } from '../../src/db/database.js'
import type { AccountsTable } from '../../src/db/schema.js'
import type { PaymentInstruction, PaymentStatusListener, PaymentStatusReport } from '../../src/financial-data/sandbox/index.js'
import { ledgerViolations } from '../../src/financial-data/sandbox/ledger.js'
import { createBuiltinRoles, createProgrammaticAccess, type Credentials } from '../../src/iam/index.js'
import { newId } from '../../src/shared/ids.js'

/** Remembers every report, in order; optionally fails on one to test rollbacks. */
export function recordingListener(): PaymentStatusListener & { reports: PaymentStatusReport[]; failOn?: (report: PaymentStatusReport) => boolean } {
  const recorder = {
    reports: [] as PaymentStatusReport[],
    failOn: undefined as ((report: PaymentStatusReport) => boolean) | undefined,
    async onPaymentStatus(_trx: unknown, report: PaymentStatusReport) {
      if (recorder.failOn?.(report)) throw new Error(`listener refuses ${report.status}`)
      recorder.reports.push(report)
      return { from: report.status, to: report.status }
    },
  }
  return recorder
}

/** An organization that is not a sandbox, with an Owner key. */
export async function liveOrganization(database: Database): Promise<Credentials> {
  return database.transaction(async (trx) => {
    const organizationId = newId()
    await trx.insertInto('organizations').values({ id: organizationId, name: 'Live Ltd', environment: 'LIVE', created: new Date().toISOString() }).execute()
    await createBuiltinRoles(trx, organizationId)
    return createProgrammaticAccess(trx, organizationId, 'owner', 'Owner')
  })
}

export async function sandboxAccounts(database: Database, organizationId: string): Promise<(AccountsTable & { iban: string })[]> {
  const rows = await database.db.selectFrom('accounts').selectAll().where('organization_id', '=', organizationId).orderBy('id').execute()
  return rows.map((row) => ({ ...row, iban: (JSON.parse(row.identifiers) as { number: string }[])[0]!.number }))
}

export async function bankToday(database: Database, organizationId: string): Promise<string> {
  const row = await database.db.selectFrom('sandbox_banks').select('today').where('organization_id', '=', organizationId).executeTakeFirstOrThrow()
  return row.today
}

/** Booked balance now: opening + every booked entry. */
export async function bookedNow(database: Database, accountId: string): Promise<number> {
  const opening = await database.db.selectFrom('sandbox_accounts').select('opening_balance').where('account_id', '=', accountId).executeTakeFirstOrThrow()
  const sum = await database.db
    .selectFrom('transactions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()
  return Number(opening.opening_balance) + Number(sum.total)
}

export async function reportedBalance(database: Database, accountId: string, type: 'BOOKED' | 'AVAILABLE', reportedType: string, localDate: string): Promise<number | undefined> {
  const row = await database.db
    .selectFrom('balances')
    .select('amount')
    .where('account_id', '=', accountId)
    .where('type', '=', type)
    .where('reported_type', '=', reportedType as 'CLOSE')
    .where('local_date', '=', localDate)
    .executeTakeFirst()
  return row ? Number(row.amount) : undefined
}

/**
 * The balance invariant for every sandbox account of the organization, every day of its ledger:
 * returns the violations (empty when the books are right), prefixed with the account id.
 */
export async function ledgerProblems(database: Database, organizationId: string): Promise<string[]> {
  const { today } = await database.db.selectFrom('sandbox_banks').select('today').where('organization_id', '=', organizationId).executeTakeFirstOrThrow()
  const accounts = await database.db.selectFrom('sandbox_accounts').selectAll().where('organization_id', '=', organizationId).execute()
  const problems: string[] = []
  for (const account of accounts) {
    const entries = await database.db.selectFrom('transactions').select(['date', 'amount']).where('account_id', '=', account.account_id).execute()
    const balances = await database.db
      .selectFrom('balances')
      .select(['type', 'reported_type as reportedType', 'local_date as localDate', 'amount'])
      .where('account_id', '=', account.account_id)
      .execute()
    const reserved = await database.db
      .selectFrom('sandbox_instructions')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
      .where('account_id', '=', account.account_id)
      .where('status', '=', 'ACCEPTED')
      .where('payment_type', '=', 'CREDIT_TRANSFER')
      .executeTakeFirstOrThrow()
    const violations = ledgerViolations(
      { openingBalance: Number(account.opening_balance), openingDate: account.opening_date },
      entries.map((entry) => ({ date: entry.date, amount: Number(entry.amount) })),
      balances.map((balance) => ({ ...balance, amount: Number(balance.amount) })),
      today,
      Number(reserved.total),
    )
    problems.push(...violations.map((violation) => `${account.account_id}: ${violation}`))
  }
  return problems
}

let sequence = 0

export function creditTransfer(organizationId: string, accountId: string, overrides: Partial<PaymentInstruction> = {}): PaymentInstruction {
  sequence += 1
  return {
    paymentId: newId(),
    paymentType: 'CREDIT_TRANSFER',
    organizationId,
    accountId,
    amount: 10_000,
    currency: 'EUR',
    executionDate: '2000-01-01',
    counterparty: { name: 'Acme GmbH', iban: 'DE89370400440532013000' },
    reference: `Invoice ${sequence}`,
    endToEndId: `E2E-TEST-${sequence}`,
    scheme: 'SCT',
    ...overrides,
  }
}
