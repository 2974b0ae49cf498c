import type { Database } from '../../db/database.js'
import { eventPage, type Event } from '../../events/index.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { Actor } from '../../iam/actor.js'
import { requireLive } from '../../shared/lookup.js'
import { dateRangeOf } from '../transactions/date-range.js'
import { pendingTransactionRepo, toPendingTransaction, type PendingTransactionFilters } from './pending-transaction.repo.js'
import type { PendingTransaction, PendingTransactionListQuery } from './pending-transaction.schemas.js'

/** The entity type of their events (and webhook resource). Banks write them: financial-data/bookings/pending-entries.ts. */
export const PENDING_TRANSACTIONS = 'pending_transactions'

/** Query parameters → filters; without a status, the PENDING ones. @throws ApiError invalid_request (400: an inverted date range). */
function filtersOf(query: PendingTransactionListQuery): PendingTransactionFilters {
  return { accountId: query.accountId?.toLowerCase(), currency: query.currency, status: query.status ?? 'PENDING', ...dateRangeOf(query) }
}

/** The read side of pending transactions: they are the bank's records, changed only by what it reports. */
export function createPendingTransactionService(database: Database) {
  async function load(actor: Actor, id: string): Promise<PendingTransaction> {
    const row = await pendingTransactionRepo.find(database.db, actor.organizationId, id)
    return toPendingTransaction(requireLive(row, 'pending transaction', { id }))
  }

  return {
    /** @throws ApiError not_found (404), also for another organization's. */
    get: load,

    /** Newest provisional date first. @throws ApiError invalid_request (400: an inverted date range), invalid_token (400). */
    async list(actor: Actor, query: PendingTransactionListQuery): Promise<ListEnvelopeOf<PendingTransaction>> {
      const filters = filtersOf(query)
      const page = pageRequest(query, PENDING_TRANSACTIONS, { ...filters }, ['text', 'text'])
      const rows = await pendingTransactionRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.date, row.id], toPendingTransaction)
    },

    /** Its history, oldest first: CREATED, UPDATED, then BOOKED or WITHDRAWN. @throws ApiError not_found (404), invalid_token (400). */
    async events(actor: Actor, id: string, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<Event>> {
      await load(actor, id)
      return eventPage(database.db, actor.organizationId, PENDING_TRANSACTIONS, id, query)
    },
  }
}
