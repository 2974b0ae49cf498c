import { sql } from 'kysely'
import type { Executor } from '../../db/database.js'
import type { BalancesTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import { toAmount } from '../../shared/money.js'
import type { Balance } from './balance.schemas.js'

export function toBalance(row: BalancesTable): Balance {
  return {
    id: row.id,
    organizationId: row.organization_id,
    accountId: row.account_id,
    type: row.type,
    reportedType: row.reported_type,
    amount: toAmount(row.amount, row.currency),
    localDate: row.local_date,
    timestamp: row.timestamp,
    version: row.version,
    etag: etagOf(row.version),
  }
}

export interface BalanceFilters {
  accountId?: string
  type?: BalancesTable['type']
  reportedType?: BalancesTable['reported_type']
  dateFrom?: string
  dateTo?: string
  mostRecent?: boolean
}

export const balanceRepo = {
  /** One balance per account, type, reported type and day: a newer report of the same one replaces it. */
  async upsert(trx: Executor, row: BalancesTable): Promise<void> {
    await trx
      .insertInto('balances')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['account_id', 'type', 'reported_type', 'local_date']).doUpdateSet((eb) => ({
          amount: eb.ref('excluded.amount'),
          timestamp: eb.ref('excluded.timestamp'),
          version: sql<number>`balances.version + 1`,
        })),
      )
      .execute()
  },

  /**
   * `upsert` for many rows in multi-row statements (10 parameters a row, 1,000 rows a statement).
   * The rows must not repeat an (account, type, reported type, day): one statement cannot update a row twice.
   */
  async upsertMany(trx: Executor, rows: BalancesTable[]): Promise<void> {
    for (let start = 0; start < rows.length; start += 1000) {
      await trx
        .insertInto('balances')
        .values(rows.slice(start, start + 1000))
        .onConflict((conflict) =>
          conflict.columns(['account_id', 'type', 'reported_type', 'local_date']).doUpdateSet((eb) => ({
            amount: eb.ref('excluded.amount'),
            timestamp: eb.ref('excluded.timestamp'),
            version: sql<number>`balances.version + 1`,
          })),
        )
        .execute()
    }
  },

  async find(db: Executor, organizationId: string, id: string): Promise<BalancesTable | undefined> {
    return db.selectFrom('balances').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** Newest day first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: BalanceFilters, page: PageRequest): Promise<BalancesTable[]> {
    let query = db.selectFrom('balances as b').selectAll('b').where('b.organization_id', '=', organizationId)
    if (filters.accountId) query = query.where('b.account_id', '=', filters.accountId)
    if (filters.type) query = query.where('b.type', '=', filters.type)
    if (filters.reportedType) query = query.where('b.reported_type', '=', filters.reportedType)
    if (filters.dateFrom) query = query.where('b.local_date', '>=', filters.dateFrom)
    if (filters.dateTo) query = query.where('b.local_date', '<=', filters.dateTo)
    if (filters.mostRecent) {
      // The latest report of each account and type: latest day, then latest recorded.
      query = query.where('b.id', '=', (eb) =>
        eb
          .selectFrom('balances as latest')
          .select('latest.id')
          .whereRef('latest.account_id', '=', 'b.account_id')
          .whereRef('latest.type', '=', 'b.type')
          .orderBy('latest.local_date', 'desc')
          .orderBy('latest.timestamp', 'desc')
          .orderBy('latest.id', 'desc')
          .limit(1),
      )
    }
    if (page.after) query = query.where(keysetAfter(['b.local_date', 'b.id'], 'desc', page.after))
    return query.orderBy('b.local_date', 'desc').orderBy('b.id', 'desc').limit(page.limit + 1).execute()
  },
}
