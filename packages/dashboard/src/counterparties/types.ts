import type { JsonPatch, ListItem } from '@kassa/client'

/** The API's counterparty, as the generated client types it (from docs/openapi.json). */
export type Counterparty = ListItem<'/payments/v2/counterparties'>
export type PartyType = NonNullable<Counterparty['partyType']>
export type CounterpartyPatch = JsonPatch<'/payments/v2/counterparties/{id}'>

export const PARTY_TYPE_LABEL: Record<PartyType, string> = { COMPANY: 'Company', INDIVIDUAL: 'Individual' }
