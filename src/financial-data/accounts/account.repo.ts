import type { Executor } from '../../db/database.js'
import type { AccountsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import type { Account } from './account.schemas.js'

export function toAccount(row: AccountsTable): Account {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    name: row.name,
    ...(row.alias !== null ? { alias: row.alias } : {}),
    market: row.market,
    currency: row.currency,
    bank: { name: row.bank_name, ...(row.bic !== null ? { bic: row.bic } : {}) },
    identifiers: JSON.parse(row.identifiers) as AccountIdentifier[],
    fictive: row.fictive === 1,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

export const accountRepo = {
  async insert(trx: Executor, row: AccountsTable): Promise<void> {
    await trx.insertInto('accounts').values(row).execute()
  },

  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<AccountsTable | undefined> {
    const query = db.selectFrom('accounts').selectAll().where('organization_id', '=', organizationId)
    return ('id' in ref ? query.where('id', '=', ref.id) : query.where('external_id', '=', ref.externalId)).executeTakeFirst()
  },

  /** Oldest first, the order the bank lists them in; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: { currency?: string }, page: PageRequest): Promise<AccountsTable[]> {
    let query = db.selectFrom('accounts').selectAll().where('organization_id', '=', organizationId)
    if (filters.currency) query = query.where('currency', '=', filters.currency)
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },
}
