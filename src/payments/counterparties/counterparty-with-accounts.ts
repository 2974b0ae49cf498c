import type { Executor } from '../../db/database.js'
import { preparedQuery } from '../../db/prepared-query.js'
import type { CounterpartiesTable, ExternalAccountsTable } from '../../db/schema.js'
import type { ResourceRef } from '../../http/resource-ref.js'

/**
 * A counterparty with its live external accounts, oldest first, read in one query: one round trip to
 * PostgreSQL instead of two. The accounts' columns come back prefixed `account_`; a counterparty
 * without accounts is one row of nulls there.
 */
function counterpartyWithAccounts(db: Executor) {
  return db
    .selectFrom('counterparties as c')
    .leftJoin('external_accounts as a', (join) => join.onRef('a.counterparty_id', '=', 'c.id').on('a.deleted_at', 'is', null))
    .selectAll('c')
    .select([
      'a.id as account_id',
      'a.organization_id as account_organization_id',
      'a.external_id as account_external_id',
      'a.market as account_market',
      'a.identifiers as account_identifiers',
      'a.alias as account_alias',
      'a.metadata as account_metadata',
      'a.version as account_version',
      'a.created as account_created',
      'a.updated as account_updated',
    ])
    // c.id first although there is one counterparty: then SQLite walks both indexes in order instead of sorting.
    .orderBy('c.id')
    .orderBy('a.id')
}

type Row = Awaited<ReturnType<ReturnType<typeof counterpartyWithAccounts>['execute']>>[number]

const byId = preparedQuery((db, parameter: (name: 'organizationId' | 'id') => string) =>
  counterpartyWithAccounts(db).where('c.organization_id', '=', parameter('organizationId')).where('c.id', '=', parameter('id')),
)

const byExternalId = preparedQuery((db, parameter: (name: 'organizationId' | 'externalId') => string) =>
  counterpartyWithAccounts(db).where('c.organization_id', '=', parameter('organizationId')).where('c.external_id', '=', parameter('externalId')),
)

function accountOf(row: Row): ExternalAccountsTable | undefined {
  if (row.account_id === null) return undefined
  return {
    id: row.account_id,
    organization_id: row.account_organization_id!,
    counterparty_id: row.id,
    external_id: row.account_external_id,
    market: row.account_market!,
    identifiers: row.account_identifiers!,
    alias: row.account_alias,
    metadata: row.account_metadata!,
    version: row.account_version!,
    created: row.account_created!,
    updated: row.account_updated!,
    deleted_at: null,
  }
}

/** Including a deleted counterparty, so it answers 410 rather than 404; only live accounts. */
export async function findWithAccounts(
  db: Executor,
  organizationId: string,
  ref: ResourceRef,
): Promise<{ counterparty: CounterpartiesTable; accounts: ExternalAccountsTable[] } | undefined> {
  const rows = await ('id' in ref ? byId(db, { organizationId, id: ref.id }) : byExternalId(db, { organizationId, externalId: ref.externalId }))
  const first = rows[0]
  if (!first) return undefined
  return { counterparty: first, accounts: rows.map(accountOf).filter((account) => account !== undefined) }
}
