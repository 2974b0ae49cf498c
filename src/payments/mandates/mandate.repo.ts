import type { Executor } from '../../db/database.js'
import type { MandatesTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Mandate, MandateListQuery, MandateStatus } from './mandate.schemas.js'

export function toMandate(row: MandatesTable): Mandate {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    externalAccountId: row.external_account_id,
    counterpartyId: row.counterparty_id,
    scheme: row.scheme as Mandate['scheme'],
    creditorReference: row.creditor_reference,
    mandateReference: row.mandate_reference,
    signatureDate: row.signature_date,
    status: row.status as MandateStatus,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

export type MandateFilters = Omit<MandateListQuery, 'limit' | 'token'>

export const mandateRepo = {
  async insert(trx: Executor, row: MandatesTable): Promise<void> {
    await trx.insertInto('mandates').values(row).execute()
  },

  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<MandatesTable | undefined> {
    const query = db.selectFrom('mandates').selectAll().where('organization_id', '=', organizationId)
    return ('id' in ref ? query.where('id', '=', ref.id) : query.where('external_id', '=', ref.externalId)).executeTakeFirst()
  },

  /** Mandates of an external account and scheme that may still be collected under, newest first. */
  async usable(db: Executor, externalAccountId: string, scheme: string): Promise<MandatesTable[]> {
    return db
      .selectFrom('mandates')
      .selectAll()
      .where('external_account_id', '=', externalAccountId)
      .where('scheme', '=', scheme)
      .where('status', '!=', 'CANCELLED')
      .orderBy('id', 'desc')
      .execute()
  },

  /** A mandate of the external account that may still be collected under (any scheme), if any. */
  async firstUsableOfExternalAccount(db: Executor, organizationId: string, externalAccountId: string): Promise<MandatesTable | undefined> {
    return db
      .selectFrom('mandates')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('external_account_id', '=', externalAccountId)
      .where('status', '!=', 'CANCELLED')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
  },

  /** Newest first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: MandateFilters, page: PageRequest): Promise<MandatesTable[]> {
    let query = db.selectFrom('mandates').selectAll().where('organization_id', '=', organizationId)
    if (filters.externalAccountId) query = query.where('external_account_id', '=', filters.externalAccountId)
    if (filters.counterpartyId) query = query.where('counterparty_id', '=', filters.counterpartyId)
    if (filters.status) query = query.where('status', '=', filters.status)
    if (filters.scheme) query = query.where('scheme', '=', filters.scheme)
    if (page.after) query = query.where(keysetAfter(['id'], 'desc', page.after))
    return query.orderBy('id', 'desc').limit(page.limit + 1).execute()
  },

  async setStatus(trx: Executor, id: string, expectedVersion: number, status: MandateStatus, updated: string): Promise<boolean> {
    const result = await trx
      .updateTable('mandates')
      .set({ status, updated, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },
}
