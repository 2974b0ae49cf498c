import type { CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import { preparedQuery } from '../../db/prepared-query.js'
import { setupRead } from '../../db/setup-reads.js'
import { containsText } from '../../db/text-search.js'
import type { AccountsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import { routingByBic } from '../../shared/account-identifiers.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { accountNumberKey } from './account-numbers.js'
import type { Account } from './account.schemas.js'
import { affiliationIdOf, thirdPartyIdOf } from './third-parties.js'

/** What matching an account number needs of the account. */
export type NumberedAccount = Pick<AccountsTable, 'id' | 'organization_id' | 'currency'>

export function toAccount(row: AccountsTable): Account {
  const thirdPartyId = thirdPartyIdOf(row)
  return {
    id: row.id,
    organizationId: row.organization_id,
    entityId: row.entity_id,
    thirdPartyId,
    affiliationId: affiliationIdOf(row.entity_id, thirdPartyId),
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    name: row.name,
    ...(row.alias !== null ? { alias: row.alias } : {}),
    market: row.market,
    currency: row.currency,
    bank: { name: row.bank_name, ...(row.bic !== null ? { bic: row.bic } : {}) },
    identifiers: JSON.parse(row.identifiers) as AccountIdentifier[],
    routing: routingByBic(row.bic),
    fictive: row.fictive === 1,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

const accountById = preparedQuery((db, parameter: (name: 'organizationId' | 'id') => string) =>
  db.selectFrom('accounts').selectAll().where('organization_id', '=', parameter('organizationId')).where('id', '=', parameter('id')),
)

/**
 * What a payment reads of its own account, for its snapshot (payments/credit-transfers). A setup read
 * (db/setup-reads.ts): beside the identity, which no update changes, only columns that migration 0026's trigger
 * watches (test/db/setup-reads.test.ts holds the two lists together).
 */
export const PAYMENT_ACCOUNT_COLUMNS = ['id', 'organization_id', 'market', 'currency', 'identifiers', 'bic'] as const
export type PaymentAccount = Pick<AccountsTable, (typeof PAYMENT_ACCOUNT_COLUMNS)[number]>

const paymentAccountById = preparedQuery((db, parameter: (name: 'organizationId' | 'id') => string) =>
  db
    .selectFrom('accounts')
    .select([...PAYMENT_ACCOUNT_COLUMNS])
    .where('organization_id', '=', parameter('organizationId'))
    .where('id', '=', parameter('id')),
)

/** The type of the connection an account is on: every payment's bank business date asks it (issue 14). */
const connectionType = preparedQuery((db, parameter: (name: 'accountId') => string) =>
  db
    .selectFrom('accounts')
    .innerJoin('bank_connections', 'bank_connections.id', 'accounts.connection_id')
    .select('bank_connections.type')
    .where('accounts.id', '=', parameter('accountId')),
)

export const accountRepo = {
  /**
   * The organization's accounts under each of their account numbers (accountNumberKey), whatever the
   * identifier's type: how a statement finds its account, and how registration finds a number taken.
   */
  async byNumber(db: Executor, organizationId: string): Promise<Map<string, NumberedAccount[]>> {
    const rows = await db.selectFrom('accounts').select(['id', 'organization_id', 'currency', 'identifiers']).where('organization_id', '=', organizationId).execute()
    const byNumber = new Map<string, NumberedAccount[]>()
    for (const { identifiers, ...account } of rows) {
      for (const identifier of JSON.parse(identifiers) as AccountIdentifier[]) {
        const key = accountNumberKey(identifier.number)
        byNumber.set(key, [...(byNumber.get(key) ?? []), account])
      }
    }
    return byNumber
  },

  /** Writes alias, entity and metadata if the account is still at `expectedVersion`; false when someone else wrote first. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: Pick<AccountsTable, 'alias' | 'entity_id' | 'metadata' | 'updated'>): Promise<boolean> {
    const result = await trx
      .updateTable('accounts')
      .set({ ...changes, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** The bank connection the account names (its thirdPartyId); null when none, undefined when there is no such account. */
  async connectionIdOf(db: Executor, accountId: string): Promise<string | null | undefined> {
    return (await db.selectFrom('accounts').select('connection_id').where('id', '=', accountId).executeTakeFirst())?.connection_id
  },

  /** The type of the bank connection the account names: FILES, or SANDBOX for the sandbox bank's own accounts; undefined when none. */
  async connectionTypeOf(db: Executor, accountId: string): Promise<'FILES' | 'SANDBOX' | undefined> {
    return (await connectionType(db, { accountId }))[0]?.type
  },

  /** connectionTypeOf as a statement to run with others (runTogether); its first row's `type` is the answer. */
  connectionTypeStatement(db: Executor, accountId: string): CompiledQuery<{ type: 'FILES' | 'SANDBOX' }> {
    return connectionType.bind(db, { accountId })
  },

  /** Whether any account names the connection: such a connection cannot be deleted. */
  async usesConnection(db: Executor, connectionId: string): Promise<boolean> {
    return (await db.selectFrom('accounts').select('id').where('connection_id', '=', connectionId).limit(1).executeTakeFirst()) !== undefined
  },

  async insert(trx: Executor, row: AccountsTable): Promise<void> {
    await trx.insertInto('accounts').values(row).execute()
  },

  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<AccountsTable | undefined> {
    if ('id' in ref) return (await accountById(db, { organizationId, id: ref.id }))[0]
    return db.selectFrom('accounts').selectAll().where('organization_id', '=', organizationId).where('external_id', '=', ref.externalId).executeTakeFirst()
  },

  /**
   * A payment's own account by id, as a setup read to run with others (runTogether): a credit transfer's reads
   * (payments/credit-transfers), answered from memory on SQLite while the organization's setup is unchanged.
   */
  paymentAccountStatement(db: Executor, organizationId: string, id: string): CompiledQuery<PaymentAccount> {
    return setupRead(organizationId, paymentAccountById.bind(db, { organizationId, id }))
  },

  /** Oldest first, the order the bank lists them in; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: { currency?: string; identifier?: string; entityId?: string }, page: PageRequest): Promise<AccountsTable[]> {
    let query = db.selectFrom('accounts').selectAll().where('organization_id', '=', organizationId)
    if (filters.currency) query = query.where('currency', '=', filters.currency)
    if (filters.entityId) query = query.where('entity_id', '=', filters.entityId)
    // Identifiers are stored unspaced; the quotes make it the whole number, not a fragment of one.
    if (filters.identifier) query = query.where(containsText('identifiers', `"${filters.identifier}"`))
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },
}
