import { Type, type Static } from 'typebox'
import { LocalDate } from '../transactions/transaction.schemas.js'

/**
 * At most this many booking days per statement: the document is built in memory (not streamed), so the
 * range is what bounds its size — a year of a busy account's entries, like a bank's yearly statement.
 */
export const MAX_STATEMENT_DAYS = 366

export const StatementExportQuery = Type.Object(
  {
    from: LocalDate,
    to: LocalDate,
  },
  { additionalProperties: false },
)
export type StatementExportQuery = Static<typeof StatementExportQuery>
