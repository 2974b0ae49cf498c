import type { CounterpartiesTable, ExternalAccountsTable } from '../../db/schema.js'
import type { AccountIdentifier, Address } from '../../shared/common.schemas.js'
import type { AccountHolder, AccountSnapshot } from './payment.schemas.js'

/** A counterparty's account as a payment or mandate names it (reference §2.1 ExternalAccountSnapshot). */
export function externalAccountSnapshot(account: Pick<ExternalAccountsTable, 'id' | 'organization_id' | 'market' | 'identifiers'>): AccountSnapshot {
  return {
    type: 'EXTERNAL_ACCOUNT',
    id: account.id,
    organizationId: account.organization_id,
    market: account.market,
    identifiers: JSON.parse(account.identifiers) as AccountIdentifier[],
  }
}

/** The counterparty holding that account (reference §2.1 AccountHolder). */
export function counterpartyHolder(counterparty: Pick<CounterpartiesTable, 'id' | 'legal_name' | 'party_type' | 'address'>): AccountHolder {
  return {
    type: 'COUNTERPARTY',
    id: counterparty.id,
    legalName: counterparty.legal_name,
    ...(counterparty.party_type !== null ? { partyType: counterparty.party_type as 'INDIVIDUAL' | 'COMPANY' } : {}),
    // Bank files name the counterparty's postal address (structured: required cross-border from November 2026).
    ...(counterparty.address !== null ? { address: JSON.parse(counterparty.address) as Address } : {}),
  }
}
