import type { MinorAmount, PainVersion } from '../bank-files/index.js'

/**
 * A pain.001 (.001.09, .001.03) or pain.008 (.001.08, .001.02) file as the bank reads it (pain-file.reader.ts):
 * what it needs to book, answer (pain.002) and notify (camt.054). Values are the texts as written, but for
 * amounts (integer minor units of their currency, read exactly), counts and indicators. Optional elements
 * stay absent when the file leaves them out; judging them (an unknown IBAN, a count that does not match)
 * is the bank's business, answered with a status rather than a refused file.
 */

/** A postal address: structured parts (2019 messages) or address lines (how Kassa writes 2009 ones), as given. */
export interface ReadAddress {
  streetName?: string
  buildingNumber?: string
  postCode?: string
  townName?: string
  /** ISO 3166-1 alpha-2. */
  country?: string
  /** AdrLine, in order. */
  lines?: string[]
}

/** A party with its account and bank: BIC, or BICFI of the 2019 messages; an agent "NOTPROVIDED" has none. */
export interface ReadParty {
  name?: string
  address?: ReadAddress
  iban?: string
  bic?: string
}

/** The own account of a payment information: the debtor of a pain.001, the creditor of a pain.008. */
export interface ReadOwnAccount extends ReadParty {
  iban: string
  /** Acct/Ccy, when the file names it. */
  currency?: string
}

export interface PaymentFileTransaction {
  instructionId?: string
  endToEndId: string
  /** InstdAmt in minor units of its Ccy. */
  amount: MinorAmount
  /** The creditor of a credit transfer, the debtor of a direct debit. */
  counterparty: ReadParty
  /** RmtInf/Ustrd, its lines joined. */
  unstructuredRemittance?: string
  /** RmtInf/Strd/CdtrRefInf: the reference (e.g. ISO 11649 RF…) and its issuer. */
  creditorReference?: { reference: string; issuer?: string }
  /** Purp/Cd. */
  purpose?: string
  /** DrctDbtTx/MndtRltdInf of a direct debit: MndtId and DtOfSgntr (yyyy-mm-dd). */
  mandate?: { id: string; signatureDate?: string }
}

export interface PaymentFileInformation {
  paymentInformationId: string
  /** PmtMtd: TRF in a pain.001, DD in a pain.008. */
  method: 'TRF' | 'DD'
  /** BtchBookg; absent when the file leaves it to the agreement with the bank. */
  batchBooking?: boolean
  /** PmtInf-level NbOfTxs and CtrlSum (as written), when given. */
  numberOfTransactions?: number
  controlSum?: string
  /** ReqdExctnDt (an ISODate in .03; Dt, or the date of DtTm, in .09) or ReqdColltnDt: yyyy-mm-dd. */
  requestedDate: string
  serviceLevel?: string
  localInstrument?: string
  /** SeqTp of a direct debit: FRST, RCUR, FNAL, OOFF. */
  sequenceType?: string
  categoryPurpose?: string
  chargeBearer?: string
  /** CdtrSchmeId/Id/PrvtId/Othr/Id of a pain.008: the creditor identifier. */
  creditorSchemeId?: string
  ownAccount: ReadOwnAccount
  transactions: PaymentFileTransaction[]
}

export interface PaymentFile {
  messageType: PainVersion
  messageId: string
  /** GrpHdr/CreDtTm as written. */
  creationDateTime: string
  numberOfTransactions: number
  /** GrpHdr/CtrlSum as written, when given. */
  controlSum?: string
  initiatingPartyName?: string
  paymentInformations: PaymentFileInformation[]
}
