import type { BankStatus } from '../../financial-data/sandbox/index.js'
import type { IsoStatus, StatusReason, StatusReport } from './pain002.model.js'

/**
 * What a pain.002 status means for a payment (ISO 20022 ExternalPaymentTransactionStatus1Code), in the bank's
 * statuses that the payments domain shares (bank-connector.ts). RJCT is FAILED: REJECTED is the approvers'
 * status (CREATED → REJECTED), and the lifecycle moves a payment the bank has (SENT, PENDING_AT_BANK,
 * ACCEPTED) only to FAILED. RCVD and ACTC (received, technically valid) say no more than SENT; PART is no
 * status of a payment but a pointer to the lower levels.
 */
const PAYMENT_STATUS_OF: Record<IsoStatus, BankStatus | undefined> = {
  RCVD: 'SENT',
  ACTC: 'SENT',
  PDNG: 'PENDING_AT_BANK',
  ACCP: 'ACCEPTED',
  ACSP: 'ACCEPTED',
  ACWC: 'ACCEPTED',
  ACWP: 'ACCEPTED',
  ACFC: 'ACCEPTED',
  ACSC: 'EXECUTED',
  ACCC: 'EXECUTED',
  RJCT: 'FAILED',
  PART: undefined,
}

export function paymentStatusOf(status: IsoStatus): BankStatus | undefined {
  return PAYMENT_STATUS_OF[status]
}

/** ExternalStatusReason1Code names of the codes banks send most, for a reason without AddtlInf. */
const REASON_NAMES: Record<string, string> = {
  AC01: 'Incorrect account number',
  AC04: 'Closed account number',
  AC06: 'Blocked account',
  AG01: 'Transaction forbidden',
  AM04: 'Insufficient funds',
  AM05: 'Duplication',
  BE05: 'Unrecognised initiating party',
  FF01: 'Invalid file format',
  MD01: 'No mandate',
  MS02: 'Not specified reason customer generated',
  MS03: 'Not specified reason agent generated',
  RC01: 'Bank identifier incorrect',
}

/** The reason as the payment keeps it: the code and its free text (NARR's is the AddtlInf), else the code's name. */
export function describeReason(reason: StatusReason): { code: string; description: string } {
  return { code: reason.code, description: reason.additionalInformation ?? REASON_NAMES[reason.code] ?? reason.code }
}

/** A payment of the original file: its end-to-end id and the PmtInfId it went in. */
export interface OriginalPayment {
  endToEndId: string
  paymentInformationId: string
}

export interface ReportedStatus {
  status: IsoStatus
  reason?: StatusReason
}

/**
 * The status the report gives one payment of the original file (ISO 20022 pain.002: a status at a higher level
 * holds for every transaction under it unless a lower level says otherwise; PART sends the reader down). A
 * rejected group or payment information rejects every transaction in it. undefined: the report says nothing of it.
 */
export function reportedStatusOf(report: StatusReport, payment: OriginalPayment): ReportedStatus | undefined {
  const group = report.groupStatus && report.groupStatus !== 'PART' ? withReason(report.groupStatus, report.groupReason) : undefined
  if (group?.status === 'RJCT') return group
  const information = report.paymentInformations.find((candidate) => candidate.id === payment.paymentInformationId)
  const ofInformation = information?.status && information.status !== 'PART' ? withReason(information.status, information.reason) : undefined
  if (ofInformation?.status === 'RJCT') return ofInformation
  const transaction = information?.transactions.find((candidate) => candidate.endToEndId === payment.endToEndId)
  const ofTransaction = transaction?.status && transaction.status !== 'PART' ? withReason(transaction.status, transaction.reason) : undefined
  return ofTransaction ?? ofInformation ?? group
}

function withReason(status: IsoStatus, reason: StatusReason | undefined): ReportedStatus {
  return reason ? { status, reason } : { status }
}

/** The ids the report names that the original file does not carry: reported, not an error of the whole file. */
export function unknownIdsOf(report: StatusReport, payments: readonly OriginalPayment[]): { paymentInformationIds: string[]; endToEndIds: string[] } {
  const informationIds = new Set(payments.map((payment) => payment.paymentInformationId))
  const paymentInformationIds = report.paymentInformations.filter((information) => !informationIds.has(information.id)).map((information) => information.id)
  const endToEndIds = report.paymentInformations.flatMap((information) =>
    information.transactions
      .filter((transaction) => !payments.some((payment) => payment.paymentInformationId === information.id && payment.endToEndId === transaction.endToEndId))
      .map((transaction) => transaction.endToEndId),
  )
  return { paymentInformationIds, endToEndIds }
}
