/** The typed model of an ISO 20022 bank-to-customer message, as camt-parser.ts reads it. */

export const MESSAGE_KINDS = {
  'camt.053': { root: 'BkToCstmrStmt', item: 'Stmt', name: 'statement' },
  'camt.052': { root: 'BkToCstmrAcctRpt', item: 'Rpt', name: 'account report' },
  'camt.054': { root: 'BkToCstmrDbtCdtNtfctn', item: 'Ntfctn', name: 'debit/credit notification' },
} as const
export type CamtKind = keyof typeof MESSAGE_KINDS

/** Message definition versions .001.02 through .001.08, the ones whose entry structure is handled here. */
export const SUPPORTED_VERSIONS = ['001.02', '001.03', '001.04', '001.05', '001.06', '001.07', '001.08'] as const

export interface CamtAmount {
  /** The decimal text as written, e.g. "1250.00". */
  value: string
  /** The Ccy attribute. */
  currency?: string
}

export interface CamtBalance {
  path: string
  offset?: number
  /** Bal/Tp/CdOrPrtry/Cd (OPBD, CLBD, CLAV, ITBD, PRCD, …) or the proprietary code. */
  code?: string
  amount?: CamtAmount
  creditDebit?: string
  /** Dt/Dt without its time zone, or the date part of Dt/DtTm: the bank's local date (camt-extract.ts). */
  date?: string
}

export interface CamtParty {
  name?: string
  iban?: string
  /** Acct/Id/Othr/Id: a non-IBAN account number. */
  otherAccountId?: string
  bic?: string
}

export interface CamtBankTransactionCode {
  domain?: string
  family?: string
  subfamily?: string
  proprietary?: { code: string; issuer?: string }
}

export interface CamtTransactionDetails {
  path: string
  /** TxDtls/Amt (.04 and later) or TxDtls/AmtDtls/TxAmt/Amt. */
  amount?: CamtAmount
  creditDebit?: string
  endToEndId?: string
  accountServicerReference?: string
  mandateId?: string
  unstructured: string[]
  /** Strd/CdtrRefInf/Ref: creditor references (RF…, OCR, KID). */
  structuredReferences: string[]
  debtor?: CamtParty
  creditor?: CamtParty
  additionalInfo?: string
  returnReason?: { code: string; additionalInfo?: string }
}

export interface CamtEntry {
  path: string
  offset?: number
  entryReference?: string
  accountServicerReference?: string
  amount?: CamtAmount
  creditDebit?: string
  reversal: boolean
  /** Sts (.02–.07) or Sts/Cd, Sts/Prtry (.08). */
  status?: string
  bookingDate?: string
  valueDate?: string
  bankTransactionCode?: CamtBankTransactionCode
  additionalInfo?: string
  /** NtryDtls/Btch/PmtInfId: the payment batch a batch-booked entry carries. */
  batchPaymentInformationId?: string
  details: CamtTransactionDetails[]
}

export interface CamtStatement {
  path: string
  offset?: number
  id?: string
  electronicSequenceNumber?: string
  /** The date part of CreDtTm. */
  creationDate?: string
  /** The date parts of FrToDt/FrDtTm and FrToDt/ToDtTm: the days the statement covers. */
  period?: { from?: string; to?: string }
  account: { iban?: string; otherId?: string; currency?: string }
  balances: CamtBalance[]
  entries: CamtEntry[]
}

export interface CamtMessage {
  kind: CamtKind
  /** e.g. "001.02" */
  version: string
  namespace: string
  messageId?: string
  statements: CamtStatement[]
  /** 1-based line and column of a character offset in the XML text. */
  lineOf(offset: number | undefined): { line: number; column: number } | undefined
}
