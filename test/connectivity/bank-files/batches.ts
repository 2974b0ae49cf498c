import type {
  Counterparty,
  CreditTransferBatch,
  CreditTransferPaymentInformation,
  CreditTransferTransaction,
  DirectDebitBatch,
  DirectDebitPaymentInformation,
  DirectDebitTransaction,
  MessageHeader,
  MinorAmount,
  OwnAccount,
  Pain001Version,
  Pain008Version,
} from '../../../src/connectivity/bank-files/index.js'

/** Batches for the pain writers' tests: valid by default, each part replaceable. IBANs pass mod-97, BICs match their IBAN's country. */

export const IBAN = {
  DE: 'DE89370400440532013000',
  FR: 'FR1420041010050500013M02606',
  NL: 'NL91ABNA0417164300',
  AT: 'AT611904300234573201',
  BE: 'BE68539007547034',
  ES: 'ES9121000418450200051332',
} as const

export const BIC = { DE: 'COBADEFFXXX', FR: 'BNPAFRPP', NL: 'ABNANL2A', AT: 'BKAUATWW', BE: 'GEBABEBB', ES: 'CAIXESBB' } as const

export const CREDITOR_SCHEME_ID = 'DE98ZZZ09999999999'

/** A name of every kind the escaping must carry: XML's specials, Latin accents, CJK, an emoji (two UTF-16 units, one character). */
export const HOSTILE_NAME = `Fish & Chips <"Ltd"> 'Ω' ]]> Müller-Lüdenscheidt 日本 😀`

/** Exactly 70 characters as the XSD counts them (code points), though JavaScript's length says 75. */
export const LONGEST_NAME = `${'😀'.repeat(5)}${'é'.repeat(65)}`

export function message(overrides: Partial<MessageHeader> = {}): MessageHeader {
  return {
    messageId: 'MSG-2026-0001',
    creationDateTime: new Date('2026-03-02T09:30:15.250Z'),
    initiatingParty: { name: 'Kassa Demo GmbH', organisationId: { bic: 'DEUTDEFF' } },
    ...overrides,
  }
}

export function ownAccount(overrides: Partial<OwnAccount> = {}): OwnAccount {
  return { name: 'Kassa Demo GmbH', iban: IBAN.DE, bic: BIC.DE, currency: 'EUR', ...overrides }
}

/**
 * The counterparties every version is validated with: BIC present and absent, address absent, minimal
 * (town and country) and complete, names at the limit and full of characters to escape.
 */
export const COUNTERPARTIES: Record<string, Counterparty> = {
  plain: { name: 'Anna Schmidt', iban: IBAN.FR },
  withBic: { name: 'Jan de Vries', iban: IBAN.NL, bic: BIC.NL },
  minimalAddress: { name: 'Wiener Werkstätten', iban: IBAN.AT, address: { townName: 'Wien', country: 'AT' } },
  fullAddress: {
    name: 'Kölner Dom-Bäckerei',
    iban: IBAN.DE,
    bic: 'DEUTDEDBKOE',
    address: { streetName: 'Hohe Straße', buildingNumber: '12a', postCode: '50667', townName: 'Köln', country: 'DE' },
  },
  hostileName: { name: HOSTILE_NAME, iban: IBAN.BE, address: { streetName: 'Rue <Haute> & Basse', townName: 'Bruxelles "Centre"', country: 'BE' } },
  longestName: { name: LONGEST_NAME, iban: IBAN.ES, bic: BIC.ES },
}

/** Amounts of 0-, 2- and 3-digit currencies, the smallest and the largest Kassa writes. */
export const AMOUNTS: Record<string, { amount: MinorAmount; written: string }> = {
  eur: { amount: { value: 1502, currency: 'EUR' }, written: '15.02' },
  eurCent: { amount: { value: 5, currency: 'EUR' }, written: '0.05' },
  eurLarge: { amount: { value: 999_999_999_999, currency: 'EUR' }, written: '9999999999.99' },
  jpy: { amount: { value: 1502, currency: 'JPY' }, written: '1502' },
  jpyLarge: { amount: { value: 999_999_999_999, currency: 'JPY' }, written: '999999999999' },
  kwd: { amount: { value: 1502, currency: 'KWD' }, written: '1.502' },
  clf: { amount: { value: 1, currency: 'CLF' }, written: '0.0001' },
}

export function creditTransfer(n: number, overrides: Partial<CreditTransferTransaction> = {}): CreditTransferTransaction {
  return {
    instructionId: `INSTR-${n}`,
    endToEndId: `E2E-${n}`,
    amount: { value: 100 + n, currency: 'EUR' },
    creditor: COUNTERPARTIES.plain!,
    remittance: { unstructured: `Invoice ${n}` },
    ...overrides,
  }
}

export function creditTransferInformation(
  id: string,
  transactions: CreditTransferTransaction[],
  overrides: Partial<CreditTransferPaymentInformation> = {},
): CreditTransferPaymentInformation {
  return { paymentInformationId: id, batchBooking: true, requestedExecutionDate: '2026-03-03', debtor: ownAccount(), transactions, ...overrides }
}

export function creditTransferBatch(version: Pain001Version, paymentInformation: CreditTransferPaymentInformation[], header = message()): CreditTransferBatch {
  return { version, message: header, paymentInformation }
}

export function directDebit(n: number, overrides: Partial<DirectDebitTransaction> = {}): DirectDebitTransaction {
  return {
    instructionId: `INSTR-${n}`,
    endToEndId: `E2E-${n}`,
    amount: { value: 100 + n, currency: 'EUR' },
    mandate: { id: `MANDATE-${n}`, signatureDate: '2025-11-20' },
    debtor: COUNTERPARTIES.plain!,
    remittance: { unstructured: `Subscription ${n}` },
    ...overrides,
  }
}

export function directDebitInformation(id: string, transactions: DirectDebitTransaction[], overrides: Partial<DirectDebitPaymentInformation> = {}): DirectDebitPaymentInformation {
  return {
    paymentInformationId: id,
    batchBooking: true,
    requestedCollectionDate: '2026-03-09',
    localInstrument: 'CORE',
    sequenceType: 'RCUR',
    creditorSchemeId: CREDITOR_SCHEME_ID,
    creditor: ownAccount(),
    transactions,
    ...overrides,
  }
}

export function directDebitBatch(version: Pain008Version, paymentInformation: DirectDebitPaymentInformation[], header = message()): DirectDebitBatch {
  return { version, message: header, paymentInformation }
}

/** `count` items built by `make` from 1 to `count`: the "many transactions" cases. */
export function numbered<T>(count: number, make: (n: number) => T): T[] {
  return Array.from({ length: count }, (_, n) => make(n + 1))
}
