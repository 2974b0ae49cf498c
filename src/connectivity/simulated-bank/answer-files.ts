import type { Transaction } from '../../financial-data/transactions/transaction.schemas.js'
import { newId } from '../../shared/ids.js'
import type { CreditDebit, NotificationEntry } from '../bank-side/index.js'
import { writeCamt054, writePain002 } from '../bank-side/index.js'
import type { IsoStatus, Pain002Version, StatusReason } from '../files-in/pain002.model.js'

/** A MsgId of the bank's (Max35Text): its kind and a fresh id. */
export function answerMessageId(prefix: string): string {
  return `${prefix}${newId().replaceAll('-', '')}`
}

/** What the simulated bank answers about one transaction of a payment file. */
export interface TransactionAnswer {
  paymentInformationId: string
  endToEndId: string
  status: IsoStatus
  reason?: StatusReason
}

/** The original file an answer is about. */
export interface OriginalFile {
  messageId: string
  /** pain.001.001.09, pain.008.001.02, … */
  messageType: string
}

/** The answer to a 2009 message is a 2009 report (pain.002.001.03), to a 2019 one a 2019 report (pain.002.001.10). */
export function reportVersionOf(messageType: string): Pain002Version {
  return messageType.endsWith('.001.03') || messageType.endsWith('.001.02') ? 'pain.002.001.03' : 'pain.002.001.10'
}

/**
 * A pain.002 on some transactions of a file: each transaction's status under its payment information, and the
 * group's status the common one, or PART when they differ.
 */
export function statusReportFile(messageId: string, original: OriginalFile, answers: readonly TransactionAnswer[]): string {
  const statuses = new Set(answers.map((answer) => answer.status))
  const informationIds = [...new Set(answers.map((answer) => answer.paymentInformationId))]
  return writePain002({
    version: reportVersionOf(original.messageType),
    messageId,
    originalMessageId: original.messageId,
    originalMessageName: original.messageType,
    groupStatus: statuses.size === 1 ? [...statuses][0]! : 'PART',
    informations: informationIds.map((id) => ({
      id,
      transactions: answers
        .filter((answer) => answer.paymentInformationId === id)
        .map((answer) => ({ endToEndId: answer.endToEndId, status: answer.status, ...(answer.reason ? { reason: answer.reason } : {}) })),
    })),
  })
}

/** The references a booking of a payment carries back: its file, its payment information and its end-to-end id. */
export interface BookedPayment {
  messageId: string
  paymentInformationId: string
  endToEndId: string
}

/**
 * A camt.054 of one booking the bank made on the account (an execution or a return), carrying the payment's
 * references and, for a return, the reason; its AcctSvcrRef is the entry's reference as booked, so the statement
 * import knows it as the same entry.
 */
export function notificationFile(messageId: string, account: { iban: string; currency: string }, transaction: Transaction, payment: BookedPayment): string {
  const creditDebit: CreditDebit = transaction.amount.value < 0 ? 'DBIT' : 'CRDT'
  const amount = Math.abs(transaction.amount.value)
  const entry: NotificationEntry = {
    amount,
    creditDebit,
    bookingDate: transaction.date,
    valueDate: transaction.valueDate,
    accountServicerReference: transaction.references.entryReference,
    ...(transaction.bankTransactionCode ? { bankTransactionCode: transaction.bankTransactionCode } : {}),
    transactions: [
      {
        references: { messageId: payment.messageId, paymentInformationId: payment.paymentInformationId, endToEndId: payment.endToEndId },
        amount,
        creditDebit,
        ...(transaction.reference ? { remittance: transaction.reference } : {}),
        ...(transaction.returnReason ? { returnReason: { code: transaction.returnReason.code, ...(transaction.returnReason.description ? { additionalInformation: transaction.returnReason.description } : {}) } } : {}),
      },
    ],
    additionalInformation: transaction.description,
  }
  const created = new Date()
  return writeCamt054({ messageId, creationDateTime: created, notifications: [{ id: messageId, account, entries: [entry] }] })
}
