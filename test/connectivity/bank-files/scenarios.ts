import {
  PAIN_001_VERSIONS,
  PAIN_008_VERSIONS,
  writePain001,
  writePain008,
  type BankFile,
  type Counterparty,
  type CreditTransferPaymentInformation,
  type CreditTransferTransaction,
  type DirectDebitPaymentInformation,
  type DirectDebitTransaction,
  type InitiatingParty,
  type MessageHeader,
  type OwnAccount,
  type Pain001Version,
  type Pain008Version,
  type PainVersion,
  type PaymentInformationCommon,
  type TransactionCommon,
} from '../../../src/connectivity/bank-files/index.js'
import {
  AMOUNTS,
  COUNTERPARTIES,
  creditTransfer,
  creditTransferBatch,
  creditTransferInformation,
  directDebit,
  directDebitBatch,
  directDebitInformation,
  IBAN,
  message,
  numbered,
  ownAccount,
} from './batches.js'
import type { Document } from './xsd-validator.js'

/**
 * The two writers behind one shape, so the variations both must survive are written once and each test
 * file adds only what is its own (dates and totals of pain.001, mandates and sequence types of pain.008).
 */
export interface PainKind<V extends PainVersion, I, T> {
  versions: readonly V[]
  write(version: V, paymentInformation: I[], header?: MessageHeader): BankFile
  /** `ownAccount` is the debtor of a credit transfer, the creditor of a direct debit. */
  information(id: string, transactions: T[], overrides?: Partial<PaymentInformationCommon>, ownAccount?: OwnAccount): I
  /** `counterparty` is the creditor of a credit transfer, the debtor of a direct debit. */
  transaction(n: number, overrides?: Partial<TransactionCommon>, counterparty?: Counterparty): T
}

export const CREDIT_TRANSFERS: PainKind<Pain001Version, CreditTransferPaymentInformation, CreditTransferTransaction> = {
  versions: PAIN_001_VERSIONS,
  write: (version, paymentInformation, header) => writePain001(creditTransferBatch(version, paymentInformation, header)),
  information: (id, transactions, overrides, debtor) => creditTransferInformation(id, transactions, { ...overrides, ...(debtor && { debtor }) }),
  transaction: (n, overrides, creditor) => creditTransfer(n, { ...overrides, ...(creditor && { creditor }) }),
}

export const DIRECT_DEBITS: PainKind<Pain008Version, DirectDebitPaymentInformation, DirectDebitTransaction> = {
  versions: PAIN_008_VERSIONS,
  write: (version, paymentInformation, header) => writePain008(directDebitBatch(version, paymentInformation, header)),
  information: (id, transactions, overrides, creditor) => directDebitInformation(id, transactions, { ...overrides, ...(creditor && { creditor }) }),
  transaction: (n, overrides, debtor) => directDebit(n, { ...overrides, ...(debtor && { debtor }) }),
}

const INITIATING_PARTIES: Record<string, InitiatingParty> = {
  nameOnly: { name: 'Kassa Demo GmbH' },
  bic: { name: 'Kassa Demo GmbH', organisationId: { bic: 'DEUTDEFF' } },
  otherWithCode: { name: 'Kassa Demo GmbH', organisationId: { other: { id: 'DE123456789', scheme: { code: 'TXID' } } } },
  otherProprietary: { name: 'Kassa & Söhne', organisationId: { other: { id: 'CUST-0042', scheme: { proprietary: 'EBICS customer' }, issuer: 'Bank <EB>' } } },
}

const OWN_ACCOUNTS: Record<string, OwnAccount> = {
  withoutBic: ownAccount({ bic: undefined }),
  withAddress: ownAccount({ name: 'Kassa & Co. KG', address: { streetName: 'Friedrichstraße', buildingNumber: '1', postCode: '10117', townName: 'Berlin', country: 'DE' } }),
}

/** Every variation both kinds of file are validated with, written in `version`, by name. */
export function commonScenarios<V extends PainVersion, I, T>(kind: PainKind<V, I, T>, version: V): Record<string, BankFile> {
  const one = (transaction: Partial<TransactionCommon> = {}, information: Partial<PaymentInformationCommon> = {}) =>
    kind.write(version, [kind.information('PMTINF-1', [kind.transaction(1, transaction)], information)])
  const variations = <X>(prefix: string, values: Record<string, X>, write: (value: X) => BankFile) =>
    Object.fromEntries(Object.entries(values).map(([name, value]) => [`${prefix} ${name}`, write(value)]))
  return {
    'single transaction': one(),
    'many transactions': kind.write(version, [kind.information('PMTINF-1', numbered(500, (n) => kind.transaction(n, { amount: { value: n * 997, currency: 'EUR' } })))]),
    'several payment informations': kind.write(version, [
      kind.information('PMTINF-EUR', numbered(3, (n) => kind.transaction(n))),
      kind.information(
        'PMTINF-JPY',
        numbered(2, (n) => kind.transaction(10 + n, { amount: AMOUNTS.jpy!.amount })),
        { batchBooking: false },
        ownAccount({ iban: IBAN.NL, bic: undefined, currency: 'JPY' }),
      ),
      kind.information('PMTINF-KWD', [kind.transaction(20, { amount: AMOUNTS.kwd!.amount })], { categoryPurpose: 'SUPP' }),
    ]),
    ...variations('counterparty', COUNTERPARTIES, (counterparty) => kind.write(version, [kind.information('PMTINF-1', [kind.transaction(1, {}, counterparty)])])),
    ...variations('amount', AMOUNTS, ({ amount }) => one({ amount })),
    ...variations('own account', OWN_ACCOUNTS, (account) => kind.write(version, [kind.information('PMTINF-1', [kind.transaction(1)], {}, account)])),
    ...variations('initiating party', INITIATING_PARTIES, (initiatingParty) =>
      kind.write(version, [kind.information('PMTINF-1', [kind.transaction(1)])], message({ initiatingParty })),
    ),
    'structured creditor reference': one({ remittance: { creditorReference: { reference: 'RF18539007547034', issuer: 'ISO' } } }),
    'no remittance, with purpose': one({ remittance: undefined, purpose: 'GDDS' }),
    'non-SEPA service level and charge bearer': one({}, { serviceLevel: 'NURG', chargeBearer: 'SHAR', categoryPurpose: 'TRAD' }),
  }
}

/** The written files as documents of their version, for xsdErrorsByName. */
export function asDocuments(version: PainVersion, files: Record<string, BankFile>): Record<string, Document> {
  return Object.fromEntries(Object.entries(files).map(([name, file]) => [name, { version, xml: file.xml }]))
}
