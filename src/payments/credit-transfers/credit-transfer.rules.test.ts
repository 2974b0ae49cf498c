import { describe, expect, it } from 'vitest'
import { checkExecutionDate, checkScheme, type SchemeCheck } from './credit-transfer.rules.js'

const sepa: SchemeCheck = {
  scheme: 'SCT',
  currency: 'EUR',
  amount: 1000,
  reference: 'Invoice 2026-114',
  sourceIdentifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }],
  destinationIdentifiers: [{ market: 'FR', type: 'IBAN', number: 'FR1420041010050500013M02606' }],
}

describe('credit transfer rules', () => {
  it('accepts dates from today to 60 days ahead', () => {
    expect(() => checkExecutionDate('2026-11-21', '2026-11-21')).not.toThrow()
    expect(() => checkExecutionDate('2027-01-20', '2026-11-21')).not.toThrow()
    expect(() => checkExecutionDate('2026-11-20', '2026-11-21')).toThrow(/in the past/)
    expect(() => checkExecutionDate('2027-01-21', '2026-11-21')).toThrow(/at most 60 days/)
    // The next business date moves the latest date with it (the latest date is kept for the last one asked).
    expect(() => checkExecutionDate('2027-01-21', '2026-11-22')).not.toThrow()
    expect(() => checkExecutionDate('2027-01-21', '2026-11-21')).toThrow(/at most 60 days/)
  })

  it('checks SEPA scheme rules', () => {
    expect(() => checkScheme(sepa)).not.toThrow()
    expect(() => checkScheme({ ...sepa, scheme: 'US_CT_ACH' })).toThrow(/not supported; supported schemes: SCT, SCT_INST/)
    expect(() => checkScheme({ ...sepa, currency: 'SEK' })).toThrow(/EUR only/)
    expect(() => checkScheme({ ...sepa, reference: 'Rechnung Nr. 5 – Müller' })).toThrow(/SEPA characters/)
    expect(() =>
      checkScheme({ ...sepa, destinationIdentifiers: [{ market: 'US', type: 'NUMBER', number: '123456789' }] }),
    ).toThrow(/destination account with an IBAN/)
    expect(() =>
      checkScheme({ ...sepa, destinationIdentifiers: [{ market: 'BR', type: 'IBAN', number: 'BR1800360305000010009795493C1' }] }),
    ).toThrow(/SEPA country/)
    expect(() => checkScheme({ ...sepa, scheme: 'SCT_INST', amount: 100_000_01 })).toThrow(/limited to 100000.00/)
    expect(() => checkScheme({ ...sepa, scheme: 'SCT_INST', amount: 100_000_00 })).not.toThrow()
  })
})
