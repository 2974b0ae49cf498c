import { sql } from 'kysely'
import type { Executor } from '../../db/database.js'

export interface Hits {
  limiter: string
  key: string
  atSecond: number
  hits: number
}

export interface OthersHits {
  limiter: string
  key: string
  hits: number
  oldestSecond: number
}

/** Rows per INSERT: five parameters each, well under SQLite's limit of variables per statement. */
const ROWS_PER_STATEMENT = 500

/** Adds `process`'s counts to its rows, made on first use (one statement per 500 rows, no transaction needed). */
export async function addHits(db: Executor, process: string, hits: Hits[]): Promise<void> {
  for (let start = 0; start < hits.length; start += ROWS_PER_STATEMENT) {
    await db
      .insertInto('rate_limit_hits')
      .values(
        hits.slice(start, start + ROWS_PER_STATEMENT).map((row) => ({
          limiter: row.limiter,
          key: row.key,
          at_second: row.atSecond,
          process,
          hits: row.hits,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['limiter', 'key', 'at_second', 'process']).doUpdateSet({ hits: sql`rate_limit_hits.hits + excluded.hits` }),
      )
      .execute()
  }
}

/** What every process but `process` counted since `sinceSecond`, per limiter and key. */
export async function othersHits(db: Executor, process: string, sinceSecond: number): Promise<OthersHits[]> {
  return db
    .selectFrom('rate_limit_hits')
    .select(['limiter', 'key', (eb) => eb.fn.sum<number>('hits').as('hits'), (eb) => eb.fn.min<number>('at_second').as('oldestSecond')])
    .where('at_second', '>=', sinceSecond)
    .where('process', '<>', process)
    .groupBy(['limiter', 'key'])
    .execute()
}

export async function deleteHitsBefore(db: Executor, second: number): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('at_second', '<', second).execute()
}
