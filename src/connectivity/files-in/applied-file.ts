import type { InboundFileResult } from './inbound-file.schemas.js'

/** What processing a file from a bank did, before the file itself is kept (inbound-file.service.ts). */
export interface AppliedFile {
  /** e.g. pain.002.001.10, camt.054.001.08 */
  messageType: string
  /** The file's own MsgId. */
  messageId: string
  result: Omit<InboundFileResult, 'file'>
}

/** The payments a file moved: the bank file's `paymentIds`. */
export function movedPaymentIds(applied: AppliedFile): string[] {
  return applied.result.payments.filter((payment) => payment.outcome === 'MOVED').map((payment) => payment.paymentId)
}
