import type { Executor } from '../../db/database.js'
import type { StatementImportsTable } from '../../db/schema.js'
import type { NumberedAccount } from '../accounts/index.js'
import type { AccountHistory } from './statement-warnings.js'

export const statementRepo = {
  /** What the account held before this import: its earliest transaction's date, and the imported statement whose period ends last. */
  async history(db: Executor, account: NumberedAccount): Promise<AccountHistory> {
    const earliest = await db
      .selectFrom('transactions')
      .select((eb) => eb.fn.min<string>('date').as('date'))
      .where('organization_id', '=', account.organization_id)
      .where('account_id', '=', account.id)
      .executeTakeFirst()
    const last = await db
      .selectFrom('statement_imports')
      .select(['statement_id', 'from_date', 'to_date'])
      .where('account_id', '=', account.id)
      .where('to_date', 'is not', null)
      .orderBy('to_date', 'desc')
      .orderBy('from_date', 'desc')
      .limit(1)
      .executeTakeFirst()
    return {
      ...(earliest?.date != null ? { earliestDate: earliest.date } : {}),
      ...(last ? { lastStatement: { statementId: last.statement_id, from: last.from_date!, to: last.to_date! } } : {}),
    }
  },

  async recordImport(trx: Executor, row: StatementImportsTable): Promise<void> {
    await trx.insertInto('statement_imports').values(row).execute()
  },
}
