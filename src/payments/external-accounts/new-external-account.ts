import type { ExternalAccountsTable } from '../../db/schema.js'
import { normalizeIdentifiers } from '../../shared/account-identifiers.js'
import { newId } from '../../shared/ids.js'
import type { CreateEmbeddedExternalAccount } from './external-account.schemas.js'

/**
 * The row of a new external account of `counterpartyId`, created inside a counterparty or on its own: its
 * identifiers stored as banks store them, IBANs checked (checksum, country length).
 * @param field dot path of the account in the request, for errors ('' when the account is the whole body).
 * @throws ApiError invalid_request (400) naming the identifier at fault.
 */
export function newExternalAccountRow(
  organizationId: string,
  counterpartyId: string,
  input: CreateEmbeddedExternalAccount,
  field: string,
  now: string,
): ExternalAccountsTable {
  return {
    id: newId(),
    organization_id: organizationId,
    counterparty_id: counterpartyId,
    external_id: input.externalId ?? null,
    market: input.market,
    identifiers: JSON.stringify(normalizeIdentifiers(input.identifiers, field === '' ? 'identifiers' : `${field}.identifiers`)),
    alias: input.alias ?? null,
    metadata: JSON.stringify(input.metadata ?? {}),
    version: 1,
    created: now,
    updated: now,
    deleted_at: null,
  }
}
