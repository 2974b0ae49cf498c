import type { AccountsTable } from '../../db/schema.js'
import { derivedId } from '../../shared/ids.js'

/**
 * reference §2.2: an account names the third party it is held through (`thirdPartyId`, "bank/PSP") and the
 * affiliation of its entity with that third party (`affiliationId`, "entity↔third-party relationship"). In Kassa
 * the third party is the account's bank connection (/connectivity/v2/connections): the FILES connection it was
 * registered with, or the sandbox bank's own SANDBOX connection for that bank's accounts.
 */

/**
 * The account's thirdPartyId. An account registered without a connection (its data comes from imported
 * statements only) has no connection to name: it names its bank instead, by an id derived from the organization
 * and the bank's BIC (its name when it has none) — the same for every such account of the organization at that
 * bank, and not the id of any connection.
 */
export function thirdPartyIdOf(row: Pick<AccountsTable, 'organization_id' | 'connection_id' | 'bic' | 'bank_name'>): string {
  return row.connection_id ?? derivedId('bank', row.organization_id, row.bic ?? row.bank_name)
}

/**
 * The account's affiliationId: the relationship of its entity with its third party, an id derived from the two
 * (RFC 9562 v5). The accounts of one entity at one connection share it; moving an account to another entity
 * gives it that entity's.
 */
export function affiliationIdOf(entityId: string, thirdPartyId: string): string {
  return derivedId('affiliation', entityId, thirdPartyId)
}

