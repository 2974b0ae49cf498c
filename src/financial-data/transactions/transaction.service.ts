import type { Database } from '../../db/database.js'
import { eventPage, recordEvent, type Event } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageJson, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag } from '../../http/preconditions.js'
import type { Actor } from '../../iam/actor.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { requireLive } from '../../shared/lookup.js'
import { dateRangeOf } from './date-range.js'
import { transactionJson, transactionRepo, toTransaction, type TransactionFilters } from './transaction.repo.js'
import { TRANSACTION_PATCH_RULES, TransactionEditable, type Transaction, type TransactionListQuery } from './transaction.schemas.js'

export const TRANSACTIONS = 'transactions'
const applyPatch = createPatcher(TransactionEditable, TRANSACTION_PATCH_RULES)

/** Query parameters → filters (date: dateRangeOf). @throws ApiError (400) */
function filtersOf(query: TransactionListQuery): TransactionFilters {
  const filters: TransactionFilters = {
    accountId: query.accountId,
    currency: query.currency,
    reconciliationStatus: query.reconciliationStatus,
    ...dateRangeOf(query),
    amountFrom: query['amount[gte]'],
    amountTo: query['amount[lte]'],
  }
  if (filters.amountFrom !== undefined && filters.amountTo !== undefined && filters.amountFrom > filters.amountTo) {
    throw invalidField('amount[gte]', 'must not be above amount[lte]')
  }
  return filters
}

export function createTransactionService(database: Database) {
  async function load(actor: Actor, id: string): Promise<Transaction> {
    return toTransaction(requireLive(await transactionRepo.find(database.db, actor.organizationId, id), 'transaction', { id }))
  }

  return {
    /** @throws ApiError not_found (404). */
    get: load,

    /**
     * Newest first, as the JSON text of a ListEnvelope of transactions (transactionJson).
     * @throws ApiError invalid_request (400: inverted ranges), invalid_token (400).
     */
    async list(actor: Actor, query: TransactionListQuery): Promise<string> {
      const filters = filtersOf(query)
      const page = pageRequest(query, TRANSACTIONS, { ...filters }, ['text', 'text'])
      const rows = await transactionRepo.list(database.db, actor.organizationId, filters, page)
      return pageJson(rows, page, (row) => [row.date, row.id], transactionJson)
    },

    /**
     * Metadata is the only field a client may change on a bank's record.
     * @throws ApiError not_found (404), precondition_failed (412), invalid_patch (400).
     */
    async update(ctx: CommandContext, id: string, etag: string, operations: JsonPatchOperation[]): Promise<Transaction> {
      return ctx.transaction(async (trx) => {
        const row = requireLive(await transactionRepo.find(trx, ctx.actor.organizationId, id), 'transaction', { id })
        const current = toTransaction(row)
        assertEtag(etag, current.etag)
        const patched = applyPatch({ metadata: current.metadata }, operations)
        const updated = nowIso()
        if (!(await transactionRepo.updateMetadata(trx, id, current.version, JSON.stringify(patched.metadata), updated))) {
          throw new ApiError('precondition_failed', 'The transaction changed while this update ran; fetch it again')
        }
        const transaction = { ...current, metadata: patched.metadata, version: current.version + 1, etag: `version:${current.version + 1}`, updated }
        await recordEvent(trx, {
          organizationId: ctx.actor.organizationId,
          entityType: TRANSACTIONS,
          entityId: id,
          type: 'UPDATED',
          name: 'UPDATED',
          originator: ctx.actor.userId,
          entity: transaction,
        })
        return transaction
      })
    },

    /** The transaction's history, oldest first. @throws ApiError not_found (404), invalid_token (400). */
    async events(actor: Actor, id: string, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<Event>> {
      await load(actor, id)
      return eventPage(database.db, actor.organizationId, TRANSACTIONS, id, query)
    },
  }
}
