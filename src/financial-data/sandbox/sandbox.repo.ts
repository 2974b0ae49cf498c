import { sql, type CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import { preparedQuery } from '../../db/prepared-query.js'
import type { SandboxAccountsTable, SandboxBanksTable, SandboxInstructionsTable } from '../../db/schema.js'

export interface LedgerAccountRow {
  id: string
  organization_id: string
  currency: string
  opening_balance: number
  opening_date: string
  identifiers: string
  name: string
}

/** Statuses in which an instruction can still change (an execution's return comes in the same step). */
export const OPEN_STATUSES = ['PENDING_AT_BANK', 'ACCEPTED'] as const

// The bank and the account a payment's bank business date reads on every create: compiled once (issue 14).
const bankOf = preparedQuery((db, parameter: (name: 'organizationId') => string) =>
  db.selectFrom('sandbox_banks').selectAll().where('organization_id', '=', parameter('organizationId')),
)
// Its date alone: a setup read (db/setup-reads.ts), whose token the bank's other columns do not change (migration 0025).
const bankDateOf = preparedQuery((db, parameter: (name: 'organizationId') => string) =>
  db.selectFrom('sandbox_banks').select('today').where('organization_id', '=', parameter('organizationId')),
)
const sandboxAccount = preparedQuery((db, parameter: (name: 'accountId') => string) =>
  db.selectFrom('sandbox_accounts').selectAll().where('account_id', '=', parameter('accountId')),
)

/** SQL of the sandbox bank's own tables, and the ledger sums it reads from `transactions`. */
export const sandboxRepo = {
  async insertBank(trx: Executor, row: SandboxBanksTable): Promise<void> {
    await trx.insertInto('sandbox_banks').values(row).execute()
  },

  async findBank(db: Executor, organizationId: string): Promise<SandboxBanksTable | undefined> {
    return (await bankOf(db, { organizationId }))[0]
  },

  /** The bank's business date, as a statement to run with others (runTogether). */
  bankDateStatement(db: Executor, organizationId: string): CompiledQuery<Pick<SandboxBanksTable, 'today'>> {
    return bankDateOf.bind(db, { organizationId })
  },

  /**
   * Takes the organization's bank for this transaction: an UPDATE row-locks it on PostgreSQL (SQLite
   * transactions already hold the write lock), so submissions and steps of one organization run one
   * after the other and see each other's reservations.
   */
  async lockBank(trx: Executor, organizationId: string): Promise<SandboxBanksTable | undefined> {
    const result = await trx
      .updateTable('sandbox_banks')
      .set({ version: sql<number>`version + 1` })
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) return undefined
    return sandboxRepo.findBank(trx, organizationId)
  },

  async setToday(trx: Executor, organizationId: string, today: string, updated: string): Promise<void> {
    await trx.updateTable('sandbox_banks').set({ today, updated }).where('organization_id', '=', organizationId).execute()
  },

  async insertAccounts(trx: Executor, rows: SandboxAccountsTable[]): Promise<void> {
    if (rows.length > 0) await trx.insertInto('sandbox_accounts').values(rows).execute()
  },

  async listAccounts(db: Executor, organizationId: string): Promise<SandboxAccountsTable[]> {
    return db.selectFrom('sandbox_accounts').selectAll().where('organization_id', '=', organizationId).orderBy('account_id').execute()
  },

  /** The organization's sandbox accounts with what the ledger needs of the account itself. */
  async ledgerAccounts(db: Executor, organizationId: string): Promise<LedgerAccountRow[]> {
    return db
      .selectFrom('sandbox_accounts as s')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .select(['a.id', 'a.organization_id', 'a.currency', 'a.identifiers', 'a.name', 's.opening_balance', 's.opening_date'])
      .where('s.organization_id', '=', organizationId)
      .orderBy('a.id')
      .execute()
  },

  async findAccount(db: Executor, accountId: string): Promise<SandboxAccountsTable | undefined> {
    return (await sandboxAccount(db, { accountId }))[0]
  },

  /** findAccount as a statement to run with others (runTogether). */
  findAccountStatement(db: Executor, accountId: string): CompiledQuery<SandboxAccountsTable> {
    return sandboxAccount.bind(db, { accountId })
  },

  /** Σ of every booked amount per account of the organization's sandbox accounts. */
  async bookedSums(db: Executor, organizationId: string): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('transactions')
      .innerJoin('sandbox_accounts', 'sandbox_accounts.account_id', 'transactions.account_id')
      .select(['transactions.account_id as accountId', (eb) => eb.fn.sum<number>('transactions.amount').as('total')])
      .where('sandbox_accounts.organization_id', '=', organizationId)
      .groupBy('transactions.account_id')
      .execute()
    return new Map(rows.map((row) => [row.accountId, Number(row.total)]))
  },

  /** Σ amounts of the account's entries dated before `date`, and Σ per day from `date` on. */
  async dailySums(db: Executor, accountId: string, from: string): Promise<{ before: number; byDate: Map<string, number> }> {
    const [before, days] = await Promise.all([
      db
        .selectFrom('transactions')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('total'))
        .where('account_id', '=', accountId)
        .where('date', '<', from)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('transactions')
        .select(['date', (eb) => eb.fn.sum<number>('amount').as('total')])
        .where('account_id', '=', accountId)
        .where('date', '>=', from)
        .groupBy('date')
        .execute(),
    ])
    return { before: Number(before.total), byDate: new Map(days.map((day) => [day.date, Number(day.total)])) }
  },

  /** Days in [from, through] on which the account has a BOOKED INTERIM balance (those must follow the ledger too). */
  async interimDates(db: Executor, accountId: string, from: string, through: string): Promise<string[]> {
    const rows = await db
      .selectFrom('balances')
      .select('local_date')
      .where('account_id', '=', accountId)
      .where('type', '=', 'BOOKED')
      .where('reported_type', '=', 'INTERIM')
      .where('local_date', '>=', from)
      .where('local_date', '<=', through)
      .execute()
    return rows.map((row) => row.local_date)
  },

  async insertInstruction(trx: Executor, row: SandboxInstructionsTable): Promise<void> {
    await trx.insertInto('sandbox_instructions').values(row).execute()
  },

  async findInstructionByPayment(db: Executor, organizationId: string, paymentId: string): Promise<SandboxInstructionsTable | undefined> {
    return db
      .selectFrom('sandbox_instructions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('payment_id', '=', paymentId)
      .executeTakeFirst()
  },

  /** Instructions that can still change, in submission order. */
  async listOpen(db: Executor, organizationId: string): Promise<SandboxInstructionsTable[]> {
    return db
      .selectFrom('sandbox_instructions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('status', 'in', [...OPEN_STATUSES])
      .orderBy('created')
      .orderBy('id')
      .execute()
  },

  async updateInstruction(
    trx: Executor,
    id: string,
    changes: Partial<Pick<SandboxInstructionsTable, 'status' | 'reason_code' | 'booked_date' | 'transaction_id' | 'return_transaction_id'>>,
    updated: string,
  ): Promise<void> {
    await trx
      .updateTable('sandbox_instructions')
      .set({ ...changes, updated, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .execute()
  },

  /** Σ of accepted, not yet booked credit transfers per account: the reservations. */
  async reservations(db: Executor, organizationId: string): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('sandbox_instructions')
      .select(['account_id as accountId', (eb) => eb.fn.sum<number>('amount').as('total')])
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'ACCEPTED')
      .where('payment_type', '=', 'CREDIT_TRANSFER')
      .groupBy('account_id')
      .execute()
    return new Map(rows.map((row) => [row.accountId, Number(row.total)]))
  },

  /**
   * Organizations with work at `today` (a real date): banks whose clock is behind it, and banks
   * with open instructions due on their own today.
   */
  async organizationsWithWork(db: Executor, today: string): Promise<string[]> {
    const behind = await db.selectFrom('sandbox_banks').select('organization_id').where('today', '<', today).execute()
    const due = await db
      .selectFrom('sandbox_instructions as i')
      .innerJoin('sandbox_banks as b', 'b.organization_id', 'i.organization_id')
      .select('i.organization_id')
      .distinct()
      .where('i.status', 'in', [...OPEN_STATUSES])
      .whereRef('i.execution_date', '<=', 'b.today')
      .execute()
    return [...new Set([...behind, ...due].map((row) => row.organization_id))].sort()
  },
}
