import type { Executor } from '../../db/database.js'
import type { TransactionsTable } from '../../db/schema.js'
import { addDays } from '../../shared/calendar.js'
import { dayEndOf, nearer, type DayEnd } from './day-end-balance.js'

export const statementExportRepo = {
  /** The organization's name: the account owner a statement names. */
  async ownerName(db: Executor, organizationId: string): Promise<string | undefined> {
    const row = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst()
    return row?.name
  },

  /** The account's booked transactions of the booking days `from` through `to`, in booking order. */
  async bookedIn(db: Executor, accountId: string, from: string, to: string): Promise<TransactionsTable[]> {
    return db
      .selectFrom('transactions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .orderBy('date')
      .orderBy('id')
      .execute()
  },

  /** Signed sum of the account's transactions booked after `after` through `through` (either bound optional). */
  async bookedSum(db: Executor, accountId: string, after: string | undefined, through: string | undefined): Promise<number> {
    let query = db
      .selectFrom('transactions')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount'), eb.lit(0)).as('total'))
      .where('account_id', '=', accountId)
    if (after !== undefined) query = query.where('date', '>', after)
    if (through !== undefined) query = query.where('date', '<=', through)
    // PostgreSQL's sum of a bigint is a numeric, which the driver hands over as text.
    return Number((await query.executeTakeFirstOrThrow()).total)
  },

  /**
   * The reported BOOKED day-ends nearest to the end of `day`: the latest at or before it and the earliest
   * after it, each the nearer of a CLOSE and the following day's OPEN (a CLOSE wins a tie).
   */
  async dayEndsAround(db: Executor, accountId: string, day: string): Promise<{ before?: DayEnd; after?: DayEnd }> {
    const nearest = async (reportedType: 'OPEN' | 'CLOSE', latest: boolean): Promise<DayEnd | undefined> => {
      // An OPEN of day d is the end of d − 1: the end of `day` is the OPEN of the next day.
      const bound = reportedType === 'CLOSE' ? day : addDays(day, 1)
      const row = await db
        .selectFrom('balances')
        .select(['amount', 'local_date'])
        .where('account_id', '=', accountId)
        .where('type', '=', 'BOOKED')
        .where('reported_type', '=', reportedType)
        .where('local_date', latest ? '<=' : '>', bound)
        .orderBy('local_date', latest ? 'desc' : 'asc')
        .limit(1)
        .executeTakeFirst()
      return row ? dayEndOf({ reportedType, localDate: row.local_date, amount: row.amount }) : undefined
    }
    return {
      before: nearer(await nearest('CLOSE', true), await nearest('OPEN', true), true),
      after: nearer(await nearest('CLOSE', false), await nearest('OPEN', false), false),
    }
  },
}
