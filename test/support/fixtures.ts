/** Valid IBANs (ISO 13616 checksums) for counterparties in tests. */
export const IBANS = {
  de: 'DE89370400440532013000',
  fr: 'FR1420041010050500013M02606',
  nl: 'NL91ABNA0417164300',
  gb: 'GB29NWBK60161331926819',
  se: 'SE4550000000058398257466',
} as const

export function counterpartyBody(overrides: Record<string, unknown> = {}) {
  return {
    legalName: 'Acme GmbH',
    alias: 'acme',
    partyType: 'COMPANY',
    accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }] }],
    ...overrides,
  }
}

/** The body of POST /payments/v2/external-accounts: a French IBAN for the counterparty. */
export function externalAccountBody(counterpartyId: string, overrides: Record<string, unknown> = {}) {
  return { counterpartyId, market: 'FR', identifiers: [{ market: 'FR', type: 'IBAN', number: IBANS.fr }], ...overrides }
}
