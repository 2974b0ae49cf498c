import type { CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import type { MandatesTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import { counterpartyHolder, externalAccountSnapshot } from '../lifecycle/payment-parties.js'
import type { Mandate, MandateListQuery, MandateStatus } from './mandate.schemas.js'

/** A mandate with what it shows of the account it collects from and of its holder (source, sourceHolder). */
export interface MandateRow extends MandatesTable {
  source_market: string
  source_identifiers: string
  holder_legal_name: string
  holder_party_type: string | null
  holder_address: string | null
}

/** Mandates joined to their external account and its counterparty: the columns of a MandateRow. */
function mandatesWithParties(db: Executor) {
  return db
    .selectFrom('mandates')
    .innerJoin('external_accounts as source', 'source.id', 'mandates.external_account_id')
    .innerJoin('counterparties as holder', 'holder.id', 'mandates.counterparty_id')
    .selectAll('mandates')
    .select([
      'source.market as source_market',
      'source.identifiers as source_identifiers',
      'holder.legal_name as holder_legal_name',
      'holder.party_type as holder_party_type',
      'holder.address as holder_address',
    ])
}

export function toMandate(row: MandateRow): Mandate {
  const source = externalAccountSnapshot({ id: row.external_account_id, organization_id: row.organization_id, market: row.source_market, identifiers: row.source_identifiers })
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    externalAccountId: row.external_account_id,
    counterpartyId: row.counterparty_id,
    // reference §2.9: the debtor's account and its holder, read-only. A counterparty's accounts cannot be given
    // other identifiers, so only the holder's name, party type and address can differ from the mandate's creation.
    source: { ...source, routing: [] },
    sourceHolder: counterpartyHolder({ id: row.counterparty_id, legal_name: row.holder_legal_name, party_type: row.holder_party_type, address: row.holder_address }),
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

  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<MandateRow | undefined> {
    return (await db.executeQuery(mandateRepo.findStatement(db, organizationId, ref))).rows[0]
  },

  /** `find` as a statement to run with others (runTogether). */
  findStatement(db: Executor, organizationId: string, ref: ResourceRef): CompiledQuery<MandateRow> {
    const query = mandatesWithParties(db).where('mandates.organization_id', '=', organizationId)
    return ('id' in ref ? query.where('mandates.id', '=', ref.id) : query.where('mandates.external_id', '=', ref.externalId)).compile()
  },

  /** Mandates of an external account and scheme that may still be collected under, newest first: a statement to run with others (runTogether). */
  usableStatement(db: Executor, externalAccountId: string, scheme: string): CompiledQuery<MandatesTable> {
    return db
      .selectFrom('mandates')
      .selectAll()
      .where('external_account_id', '=', externalAccountId)
      .where('scheme', '=', scheme)
      .where('status', '!=', 'CANCELLED')
      .orderBy('id', 'desc')
      .compile()
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
  async list(db: Executor, organizationId: string, filters: MandateFilters, page: PageRequest): Promise<MandateRow[]> {
    let query = mandatesWithParties(db).where('mandates.organization_id', '=', organizationId)
    if (filters.externalAccountId) query = query.where('mandates.external_account_id', '=', filters.externalAccountId)
    if (filters.counterpartyId) query = query.where('mandates.counterparty_id', '=', filters.counterpartyId)
    if (filters.status) query = query.where('mandates.status', '=', filters.status)
    if (filters.scheme) query = query.where('mandates.scheme', '=', filters.scheme)
    if (page.after) query = query.where(keysetAfter(['mandates.id'], 'desc', page.after))
    return query.orderBy('mandates.id', 'desc').limit(page.limit + 1).execute()
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
