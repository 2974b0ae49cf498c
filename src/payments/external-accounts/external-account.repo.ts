import { sql, type CompiledQuery, type RawBuilder } from 'kysely'
import type { Executor } from '../../db/database.js'
import { sharedUntilCommit } from '../../db/claims.js'
import { preparedInsert, preparedStatement } from '../../db/prepared-query.js'
import type { ExternalAccountsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import { etagOf } from '../../http/preconditions.js'
import { displayNumber } from '../../shared/account-identifiers.js'
import { ACCOUNT_IDENTIFIER_TYPES, type AccountIdentifier } from '../../shared/common.schemas.js'
import { entityScope, scopedToAnyOf } from './entity-scope.js'
import type { ExternalAccount } from './external-account.schemas.js'

/** An external account's row with its counterparty's entity_ids, which the account inherits (entity-scope.ts). */
export type ScopedExternalAccountRow = ExternalAccountsTable & { counterparty_entity_ids: string }

/** @param counterpartyEntityIds the entity_ids of the account's counterparty, as stored. */
export function toExternalAccount(row: ExternalAccountsTable, counterpartyEntityIds: string): ExternalAccount {
  const identifiers = JSON.parse(row.identifiers) as AccountIdentifier[]
  return {
    id: row.id,
    organizationId: row.organization_id,
    counterpartyId: row.counterparty_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    market: row.market,
    identifiers,
    ...(row.alias !== null ? { alias: row.alias } : {}),
    name: row.alias ?? (identifiers[0] ? displayNumber(identifiers[0]) : row.id),
    ...entityScope(counterpartyEntityIds),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

/** The parts of a stored identifiers list that are not account numbers: keys, types, and the `},{` between identifiers. */
const NOT_NUMBERS = [
  ...['market', 'type', 'number'].map((key) => `"${key}":`),
  ...ACCOUNT_IDENTIFIER_TYPES.map((type) => `"${type}"`),
  '},{',
]

/**
 * The identifiers column with all but its account numbers blanked out, for a text search: on the raw
 * JSON, "iban" or "market" would find every account. What remains between numbers are quotes, market
 * codes and runs of at most two characters, none of which a JSON-encoded search of 3 or more characters
 * (its quotes escaped) can match. Plain nested replace(), the same on both backends.
 */
export function accountNumbersText(column: string): RawBuilder<string> {
  return NOT_NUMBERS.reduce((text, token) => sql<string>`replace(${text}, ${token}, '')`, sql<string>`${sql.ref(column)}`)
}

/** External accounts (as `a`) with the entity_ids of their counterparty. */
function withScope(db: Executor) {
  return db
    .selectFrom('external_accounts as a')
    .innerJoin('counterparties as c', 'c.id', 'a.counterparty_id')
    .selectAll('a')
    .select('c.entity_ids as counterparty_entity_ids')
}

/** The live row, kept from deletion until the transaction ends (sharedUntilCommit: creates to one account do not wait for each other). */
const lockLiveById = preparedStatement((db, parameter: (name: 'organizationId' | 'id') => string) =>
  sharedUntilCommit(
    db
      .selectFrom('external_accounts')
      .selectAll()
      .where('organization_id', '=', parameter('organizationId'))
      .where('id', '=', parameter('id'))
      .where('deleted_at', 'is', null),
    db,
  ),
)

// A new account's row, as a new counterparty's (counterparty.repo.ts): its failure reported by the next statement.
const insertAccountRow = preparedInsert('external_accounts', { answeredWithNext: true })

export const externalAccountRepo = {
  /** The statement that stores a new account, to run with others (runTogether). */
  insertStatement(trx: Executor, row: ExternalAccountsTable): CompiledQuery {
    return insertAccountRow.bind(trx, row)
  },

  /** Including deleted rows, so a deleted account answers 410 rather than 404. */
  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<ScopedExternalAccountRow | undefined> {
    const query = withScope(db).where('a.organization_id', '=', organizationId)
    return ('id' in ref ? query.where('a.id', '=', ref.id) : query.where('a.external_id', '=', ref.externalId)).executeTakeFirst()
  },

  /**
   * The organization's live account `id`, kept from deletion until the transaction ends (sharedUntilCommit): a
   * deletion's UPDATE waits for every payment or mandate being made to the account, so it sees every one made before
   * it, and none is made after it (their read finds the row deleted); payments to one account do not wait for each other.
   * A statement to run with others (runTogether).
   */
  lockLiveStatement(trx: Executor, organizationId: string, id: string): CompiledQuery<ExternalAccountsTable> {
    return lockLiveById.bind(trx, { organizationId, id })
  },

  async countLiveOfCounterparty(db: Executor, counterpartyId: string): Promise<number> {
    const { count } = await db
      .selectFrom('external_accounts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('counterparty_id', '=', counterpartyId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow()
    return Number(count)
  },

  /** Live accounts of the given counterparties, oldest first (their order at creation). */
  async listOfCounterparties(db: Executor, counterpartyIds: string[]): Promise<ExternalAccountsTable[]> {
    if (counterpartyIds.length === 0) return []
    return db
      .selectFrom('external_accounts')
      .selectAll()
      .where('counterparty_id', 'in', counterpartyIds)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'asc')
      .execute()
  },

  /** Newest first; fetches `limit + 1` rows for the pager. */
  async list(
    db: Executor,
    organizationId: string,
    filters: { counterpartyId?: string; entityIdsIn?: string[] },
    page: PageRequest,
  ): Promise<ScopedExternalAccountRow[]> {
    let query = withScope(db).where('a.organization_id', '=', organizationId).where('a.deleted_at', 'is', null)
    if (filters.counterpartyId) query = query.where('a.counterparty_id', '=', filters.counterpartyId)
    if (filters.entityIdsIn) query = query.where(scopedToAnyOf('c.entity_ids', filters.entityIdsIn))
    if (page.after) query = query.where(keysetAfter(['a.id'], 'desc', page.after))
    return query.orderBy('a.id', 'desc').limit(page.limit + 1).execute()
  },

  /** Writes the new state if the row is still at `expectedVersion`; false when someone else wrote first. */
  async update(
    trx: Executor,
    id: string,
    expectedVersion: number,
    changes: Pick<ExternalAccountsTable, 'alias' | 'metadata' | 'version' | 'updated'>,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('external_accounts')
      .set(changes)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Marks a live account deleted at any version, bumping it; the deleted row, or undefined if it was already gone. */
  async markDeleted(trx: Executor, id: string, now: string): Promise<ExternalAccountsTable | undefined> {
    return trx
      .updateTable('external_accounts')
      .set((eb) => ({ deleted_at: now, updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  async deleteOfCounterparty(trx: Executor, counterpartyId: string, now: string): Promise<ExternalAccountsTable[]> {
    return trx
      .updateTable('external_accounts')
      .set((eb) => ({ deleted_at: now, updated: now, version: eb('version', '+', 1) }))
      .where('counterparty_id', '=', counterpartyId)
      .where('deleted_at', 'is', null)
      .returningAll()
      .execute()
  },
}
