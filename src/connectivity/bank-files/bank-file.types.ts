/**
 * What the pain.001 and pain.008 writers take and give: a message (the file) of one or more payment
 * informations (one debited or credited own account, date and scheme each), each of one or more
 * transactions. Field names follow the ISO 20022 message items they fill; docs/bank-files.md maps each
 * to its element and limit.
 */

export const PAIN_001_VERSIONS = ['pain.001.001.09', 'pain.001.001.03'] as const
export const PAIN_008_VERSIONS = ['pain.008.001.08', 'pain.008.001.02'] as const
export type Pain001Version = (typeof PAIN_001_VERSIONS)[number]
export type Pain008Version = (typeof PAIN_008_VERSIONS)[number]
export type PainVersion = Pain001Version | Pain008Version

/** Integer minor units of an ISO 4217 currency (EUR 1502 = 15.02, JPY 1502 = 1502), never a float. */
export interface MinorAmount {
  value: number
  currency: string
}

/** A structured postal address: each part its own element (TwnNm and Ctry required, as from November 2026). */
export interface PostalAddress {
  streetName?: string
  buildingNumber?: string
  postCode?: string
  townName: string
  /** ISO 3166-1 alpha-2. */
  country: string
}

/** An identifier under a scheme: a code of the ISO external code list (e.g. "BANK", "TXID") or a proprietary name. */
export interface GenericIdentification {
  id: string
  scheme?: { code: string } | { proprietary: string }
  issuer?: string
}

/** A BIC or one other identifier, not both: the EPC guidelines allow "either 'BIC or BEI' or one occurrence of 'Other'". */
export type OrganisationIdentification = { bic: string } | { other: GenericIdentification }

export interface InitiatingParty {
  name: string
  organisationId?: OrganisationIdentification
}

export interface MessageHeader {
  /** Unique per initiating party and bank; the bank refuses a file whose MsgId it has seen. */
  messageId: string
  /** Written in UTC, to the second. */
  creationDateTime: Date
  initiatingParty: InitiatingParty
}

/** The debtor (pain.001) or creditor (pain.008): the organization's own account at the bank the file goes to. */
export interface OwnAccount {
  name: string
  address?: PostalAddress
  iban: string
  bic?: string
  currency: string
}

/** The creditor (pain.001) or debtor (pain.008) of one transaction. */
export interface Counterparty {
  name: string
  address?: PostalAddress
  iban: string
  bic?: string
}

/** Either free text or a structured creditor reference (e.g. an ISO 11649 "RF…" reference), never both (EPC rulebooks). */
export type RemittanceInformation = { unstructured: string } | { creditorReference: { reference: string; issuer?: string } }

export const CHARGE_BEARERS = ['SLEV', 'DEBT', 'CRED', 'SHAR'] as const
export type ChargeBearer = (typeof CHARGE_BEARERS)[number]

export interface TransactionCommon {
  instructionId: string
  endToEndId: string
  amount: MinorAmount
  remittance?: RemittanceInformation
  /** An ExternalPurpose1Code, e.g. "SALA", "SUPP". */
  purpose?: string
}

export interface PaymentInformationCommon {
  paymentInformationId: string
  batchBooking: boolean
  /** ExternalServiceLevel1Code; SEPA unless given (e.g. "URGP" for urgent non-SEPA payments). */
  serviceLevel?: string
  /** ExternalCategoryPurpose1Code, e.g. "SALA", "SUPP", "TREA". */
  categoryPurpose?: string
  /** SLEV (the scheme's rules, required by SEPA) unless given. */
  chargeBearer?: ChargeBearer
}

export interface CreditTransferTransaction extends TransactionCommon {
  creditor: Counterparty
}

export interface CreditTransferPaymentInformation extends PaymentInformationCommon {
  /** yyyy-mm-dd. */
  requestedExecutionDate: string
  /** ExternalLocalInstrument1Code: "INST" for SEPA Instant (SCT Inst); none for a plain SCT. */
  localInstrument?: string
  debtor: OwnAccount
  transactions: CreditTransferTransaction[]
}

export interface CreditTransferBatch {
  /** pain.001.001.09 unless given. */
  version?: Pain001Version
  message: MessageHeader
  paymentInformation: CreditTransferPaymentInformation[]
}

export const SEQUENCE_TYPES = ['FRST', 'RCUR', 'FNAL', 'OOFF'] as const
export type SequenceType = (typeof SEQUENCE_TYPES)[number]

export interface Mandate {
  id: string
  /** yyyy-mm-dd. */
  signatureDate: string
}

/** SEPA Core and SEPA Business-to-Business Direct Debit (COR1 was retired in 2017). */
export const DIRECT_DEBIT_SCHEMES = ['CORE', 'B2B'] as const
export type DirectDebitScheme = (typeof DIRECT_DEBIT_SCHEMES)[number]

export interface DirectDebitTransaction extends TransactionCommon {
  mandate: Mandate
  debtor: Counterparty
}

export interface DirectDebitPaymentInformation extends PaymentInformationCommon {
  /** yyyy-mm-dd. */
  requestedCollectionDate: string
  /** The SEPA Direct Debit scheme. */
  localInstrument: DirectDebitScheme
  /**
   * Per payment information, not per transaction: the EPC SDD implementation guidelines allow payment
   * type information only at this level, so FRST and RCUR collections go into separate payment informations.
   */
  sequenceType: SequenceType
  /** The creditor identifier the scheme assigned (e.g. "DE98ZZZ09999999999"). */
  creditorSchemeId: string
  creditor: OwnAccount
  transactions: DirectDebitTransaction[]
}

export interface DirectDebitBatch {
  /** pain.008.001.08 unless given. */
  version?: Pain008Version
  message: MessageHeader
  paymentInformation: DirectDebitPaymentInformation[]
}

/** A written file: the XML and the totals of its group header, to record beside it. */
export interface BankFile {
  messageType: PainVersion
  messageId: string
  numberOfTransactions: number
  /** The group header's CtrlSum as written: the decimal sum of every transaction's amount. */
  controlSum: string
  xml: string
}
