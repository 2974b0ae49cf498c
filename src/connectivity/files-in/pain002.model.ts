/** A pain.002 customer payment status report as Kassa reads it (pain002.reader.ts), and the limits of reading one. */

/** The versions read: the current one and the one banks still on pain.001.001.03 answer with. */
export const PAIN002_VERSIONS = ['pain.002.001.10', 'pain.002.001.03'] as const
export type Pain002Version = (typeof PAIN002_VERSIONS)[number]

/** Bytes of an inbound file: a status report of a few thousand transactions is a few MiB. */
export const INBOUND_FILE_LIMIT = 16 * 1024 * 1024

/** ExternalPaymentGroupStatus1Code / ExternalPaymentTransactionStatus1Code, those a status report may carry. */
export type IsoStatus = 'ACCP' | 'ACSP' | 'ACSC' | 'ACWC' | 'PDNG' | 'RJCT' | 'PART' | 'RCVD' | 'ACTC' | 'ACWP' | 'ACFC' | 'ACCC'

/** StsRsnInf: the ISO reason code (AC01, AC04, AM04, MS03, NARR…) and its AddtlInf free text. */
export interface StatusReason {
  code: string
  additionalInformation?: string
}

export interface TransactionStatus {
  endToEndId: string
  status?: IsoStatus
  reason?: StatusReason
}

export interface PaymentInformationStatus {
  id: string
  status?: IsoStatus
  reason?: StatusReason
  transactions: TransactionStatus[]
}

export interface StatusReport {
  messageType: Pain002Version
  messageId: string
  originalMessageId: string
  groupStatus?: IsoStatus
  groupReason?: StatusReason
  paymentInformations: PaymentInformationStatus[]
}
