import type { Database } from '../../db/database.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { requireLive } from '../../shared/lookup.js'
import { accountRepo, toAccount } from './account.repo.js'
import type { Account, AccountListQuery } from './account.schemas.js'

export function createAccountService(database: Database) {
  return {
    /** @throws ApiError not_found (404). */
    async get(actor: Actor, ref: ResourceRef): Promise<Account> {
      return toAccount(requireLive(await accountRepo.find(database.db, actor.organizationId, ref), 'account', ref))
    },

    /** @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: AccountListQuery): Promise<ListEnvelopeOf<Account>> {
      const filters = { currency: query.currency }
      const page = pageRequest(query, 'accounts', filters, ['text'])
      const rows = await accountRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], toAccount)
    },
  }
}
