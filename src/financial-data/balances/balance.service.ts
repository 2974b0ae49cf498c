import type { Database } from '../../db/database.js'
import { invalidField } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { Actor } from '../../iam/actor.js'
import { requireLive } from '../../shared/lookup.js'
import { accountRepo } from '../accounts/account.repo.js'
import { balanceRepo, toBalance, type BalanceFilters } from './balance.repo.js'
import type { AccountBalanceListQuery, Balance } from './balance.schemas.js'

function filtersOf(query: AccountBalanceListQuery, accountId: string | undefined): BalanceFilters {
  const filters: BalanceFilters = {
    accountId,
    type: query.type,
    reportedType: query.reportedType,
    dateFrom: query['date[gte]'],
    dateTo: query['date[lte]'],
    mostRecent: query.mostRecent,
  }
  if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) {
    throw invalidField('date[gte]', 'must not be after date[lte]')
  }
  return filters
}

export function createBalanceService(database: Database) {
  return {
    /**
     * Balances, newest day first; `accountId` undefined lists every account's.
     * @throws ApiError not_found (404) for an unknown account, invalid_request/invalid_token (400).
     */
    async list(actor: Actor, query: AccountBalanceListQuery, accountId: string | undefined): Promise<ListEnvelopeOf<Balance>> {
      if (accountId) requireLive(await accountRepo.find(database.db, actor.organizationId, { id: accountId }), 'account', { id: accountId })
      const filters = filtersOf(query, accountId)
      const page = pageRequest(query, 'balances', { ...filters }, ['text', 'text'])
      const rows = await balanceRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.local_date, row.id], toBalance)
    },

    /** @throws ApiError not_found (404). */
    async get(actor: Actor, id: string): Promise<Balance> {
      return toBalance(requireLive(await balanceRepo.find(database.db, actor.organizationId, id), 'balance', { id }))
    },
  }
}
