import type { CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import { preparedInsert, preparedQuery } from '../../db/prepared-query.js'
import { containsText } from '../../db/text-search.js'
import type { CounterpartiesTable, ExternalAccountsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Address, NationalIdentifier } from '../../shared/common.schemas.js'
import { accountNumbersText, entityScope, scopedToAnyOf, toExternalAccount } from '../external-accounts/index.js'
import { MIN_QUERY_LENGTH, type Counterparty } from './counterparty.schemas.js'

export function toCounterparty(row: CounterpartiesTable, accounts: ExternalAccountsTable[]): Counterparty {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    legalName: row.legal_name,
    ...(row.alias !== null ? { alias: row.alias } : {}),
    ...(row.party_type !== null ? { partyType: row.party_type as Counterparty['partyType'] } : {}),
    ...(row.email !== null ? { email: row.email } : {}),
    ...(row.phone !== null ? { phone: row.phone } : {}),
    ...(row.address !== null ? { address: JSON.parse(row.address) as Address } : {}),
    ...(row.national_identifier !== null
      ? { nationalIdentifier: JSON.parse(row.national_identifier) as NationalIdentifier }
      : {}),
    ...entityScope(row.entity_ids),
    accounts: accounts.map((account) => toExternalAccount(account, row.entity_ids)),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

/** Ids of counterparties with a live external account whose number contains `number`. */
function counterpartiesWithNumber(db: Executor, organizationId: string, number: string) {
  const accounts = db
    .selectFrom('external_accounts as a')
    .select(['a.counterparty_id', accountNumbersText('a.identifiers').as('numbers')])
    .where('a.organization_id', '=', organizationId)
    .where('a.deleted_at', 'is', null)
    .as('n')
  return db.selectFrom(accounts).select('n.counterparty_id').where(containsText('n.numbers', number))
}

export type CounterpartyChanges = Pick<
  CounterpartiesTable,
  'legal_name' | 'alias' | 'party_type' | 'email' | 'phone' | 'address' | 'national_identifier' | 'entity_ids' | 'metadata' | 'version' | 'updated'
>

const findById = preparedQuery((db, parameter: (name: 'organizationId' | 'id') => string) =>
  db.selectFrom('counterparties').selectAll().where('organization_id', '=', parameter('organizationId')).where('id', '=', parameter('id')),
)

const findByExternalId = preparedQuery((db, parameter: (name: 'organizationId' | 'externalId') => string) =>
  db
    .selectFrom('counterparties')
    .selectAll()
    .where('organization_id', '=', parameter('organizationId'))
    .where('external_id', '=', parameter('externalId')),
)

const ofExternalAccount = preparedQuery((db, parameter: (name: 'organizationId' | 'externalAccountId') => string) =>
  db
    .selectFrom('counterparties as c')
    .innerJoin('external_accounts as e', 'e.counterparty_id', 'c.id')
    .selectAll('c')
    .where('c.organization_id', '=', parameter('organizationId'))
    .where('e.id', '=', parameter('externalAccountId')),
)

// A new counterparty's row: nothing reads its answer, and a failure (a taken externalId) is reported by the
// transaction's next awaited statement — its COMMIT on PostgreSQL, one round trip fewer (answeredWithNext, issue 14).
const insertCounterpartyRow = preparedInsert('counterparties', { answeredWithNext: true })

export const counterpartyRepo = {
  /** The counterparty (deleted or not) an external account of the organization belongs to, as a statement to run with others (runTogether). */
  ofExternalAccountStatement(db: Executor, organizationId: string, externalAccountId: string): CompiledQuery<CounterpartiesTable> {
    return ofExternalAccount.bind(db, { organizationId, externalAccountId })
  },

  /** The statement that stores a new counterparty, to run with its accounts and events (runTogether). */
  insertStatement(trx: Executor, row: CounterpartiesTable): CompiledQuery {
    return insertCounterpartyRow.bind(trx, row)
  },

  /** Including deleted rows, so a deleted counterparty answers 410 rather than 404. */
  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<CounterpartiesTable | undefined> {
    const rows = await ('id' in ref ? findById(db, { organizationId, id: ref.id }) : findByExternalId(db, { organizationId, externalId: ref.externalId }))
    return rows[0]
  },

  /** Newest first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: { query?: string; entityIdsIn?: string[] }, page: PageRequest): Promise<CounterpartiesTable[]> {
    let query = db
      .selectFrom('counterparties as c')
      .selectAll('c')
      .where('c.organization_id', '=', organizationId)
      .where('c.deleted_at', 'is', null)
    if (filters.query) {
      const text = filters.query
      // Numbers are stored without spaces, but people paste them as displayed ("DE89 3704 …").
      const number = text.replace(/\s+/g, '')
      // …and JSON-encoded, so a quote in the search matches only a quote inside a number.
      const encoded = JSON.stringify(number).slice(1, -1)
      query = query.where((eb) =>
        eb.or([
          containsText('c.legal_name', text),
          containsText('c.alias', text),
          ...(number.length >= MIN_QUERY_LENGTH ? [eb('c.id', 'in', counterpartiesWithNumber(db, organizationId, encoded))] : []),
        ]),
      )
    }
    if (filters.entityIdsIn) query = query.where(scopedToAnyOf('c.entity_ids', filters.entityIdsIn))
    if (page.after) query = query.where(keysetAfter(['c.id'], 'desc', page.after))
    return query.orderBy('c.id', 'desc').limit(page.limit + 1).execute()
  },

  /** Writes the new state if the row is still at `expectedVersion`; false when someone else wrote first. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: CounterpartyChanges): Promise<boolean> {
    const result = await trx
      .updateTable('counterparties')
      .set(changes)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Bumps a live counterparty of the organization at any version, locking it; false when it has none such. */
  async bump(trx: Executor, organizationId: string, id: string, now: string): Promise<boolean> {
    const result = await trx
      .updateTable('counterparties')
      .set((eb) => ({ updated: now, version: eb('version', '+', 1) }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Marks a live counterparty deleted at any version, bumping it; the deleted row, or undefined if it was already gone. */
  async markDeleted(trx: Executor, id: string, now: string): Promise<CounterpartiesTable | undefined> {
    return trx
      .updateTable('counterparties')
      .set((eb) => ({ deleted_at: now, updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },
}
