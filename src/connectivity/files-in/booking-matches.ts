import type { Executor } from '../../db/database.js'
import type { BankFileItemsTable } from '../../db/schema.js'
import type { PaymentInstruction, PaymentStatusListener } from '../../financial-data/sandbox/index.js'
import type { Transaction } from '../../financial-data/transactions/transaction.schemas.js'
import { paymentIdOfEndToEndId } from '../../shared/ids.js'
import { bankFileItemRepo } from '../files-out/bank-file-item.repo.js'
import { fileReportOf } from '../files-out/files-connector.js'
import { paymentInformationIdsOf } from '../files-out/pain-batches.js'
import type { MatchedBooking, ReportedPayment } from './inbound-file.schemas.js'
import { describeReason } from './pain002-status.js'

/** A payment of one of the connection's files, with the ids it went out under. */
export interface SentPayment {
  item: BankFileItemsTable
  instruction: PaymentInstruction
  messageId: string
  paymentInformationId: string
}

/** The payments of the connection's OUTBOUND file with this MsgId, with their PmtInfIds. */
async function paymentsOfFile(trx: Executor, connectionId: string, messageId: string): Promise<SentPayment[]> {
  const items = await bankFileItemRepo.ofMessage(trx, connectionId, messageId)
  const instructions = items.map((item) => JSON.parse(item.instruction) as PaymentInstruction)
  const informationIds = paymentInformationIdsOf(messageId, instructions)
  return items.map((item, index) => ({ item, instruction: instructions[index]!, messageId, paymentInformationId: informationIds.get(instructions[index]!.paymentId)! }))
}

/** The payment a booking's EndToEndId names, if Kassa sent it in a file of this connection (end-to-end ids are the payments' ids). */
export async function sentPaymentByEndToEndId(trx: Executor, organizationId: string, connectionId: string, endToEndId: string): Promise<SentPayment | undefined> {
  const paymentId = paymentIdOfEndToEndId(endToEndId)
  const queued = paymentId && (await bankFileItemRepo.findByPayment(trx, organizationId, paymentId))
  if (!queued || queued.connection_id !== connectionId || queued.message_id === null) return undefined
  return (await paymentsOfFile(trx, connectionId, queued.message_id)).find((sent) => sent.item.id === queued.id)
}

/** The payments of a batch booking: those of the connection's file that went in the payment information `{MsgId}-{n}`. */
async function paymentsOfBatch(trx: Executor, connectionId: string, paymentInformationId: string): Promise<SentPayment[]> {
  const messageId = /^(.+)-\d+$/.exec(paymentInformationId)?.[1]
  if (messageId === undefined) return []
  return (await paymentsOfFile(trx, connectionId, messageId)).filter((sent) => sent.paymentInformationId === paymentInformationId)
}

/**
 * The sign a booking of the payment has on the own account: a credit transfer's execution is money out, a direct
 * debit's money in; a return is the opposite.
 */
function expectedSign(instruction: PaymentInstruction, returned: boolean): 1 | -1 {
  const out = instruction.paymentType === 'CREDIT_TRANSFER'
  return out !== returned ? -1 : 1
}

/** Why the booking does not settle these payments; undefined when it does (amounts, currency and direction agree). */
function mismatchOf(transaction: Transaction, payments: SentPayment[]): string | undefined {
  const { value, currency } = transaction.amount
  if (payments.some((sent) => sent.instruction.currency !== currency)) return `the booking is in ${currency}, the payments are not`
  const signs = new Set(payments.map((sent) => expectedSign(sent.instruction, transaction.returned)))
  if (signs.size !== 1 || Math.sign(value) !== [...signs][0]) return 'the booking goes the other way than the payments'
  const total = payments.reduce((sum, sent) => sum + sent.instruction.amount, 0)
  if (total !== Math.abs(value)) return `the booking is ${Math.abs(value)} minor units, the payments ${total}`
  return undefined
}

export interface BookingContext {
  trx: Executor
  listener: PaymentStatusListener
  organizationId: string
  connectionId: string
  /** The file, for the payments' events: "camt.054.001.08 MSG-1". */
  fileName: string
}

/**
 * Matches a transaction a bank file booked to the payments Kassa sent on this connection — by its EndToEndId,
 * or, for a batch booking (one entry for a whole payment information, BtchBookg true), by the PmtInfId it names —
 * and reports to the payments domain what the booking proves: the payment EXECUTED (the listener then reconciles
 * it to the transaction), or RETURNED with the return reason for an entry with return information. A booking whose
 * amount, currency or direction differs from its payments' settles nothing: it stays NOT_RECONCILED, for a person
 * to attach by hand.
 */
export async function matchBooking(context: BookingContext, transaction: Transaction): Promise<{ booking: MatchedBooking; payments: ReportedPayment[] }> {
  const endToEndId = transaction.references.endToEndId
  const batchId = endToEndId === undefined ? transaction.reference : undefined
  const base: MatchedBooking = {
    transactionId: transaction.id,
    accountId: transaction.accountId,
    amount: transaction.amount,
    ...(endToEndId !== undefined ? { endToEndId } : {}),
    ...(batchId !== undefined ? { paymentInformationId: batchId } : {}),
    outcome: 'UNMATCHED',
    paymentIds: [],
  }
  const found = endToEndId !== undefined
    ? [await sentPaymentByEndToEndId(context.trx, context.organizationId, context.connectionId, endToEndId)].filter((sent) => sent !== undefined)
    : batchId !== undefined ? await paymentsOfBatch(context.trx, context.connectionId, batchId) : []
  if (found.length === 0) return { booking: { ...base, note: 'No payment of this connection’s files has its EndToEndId or payment information id' }, payments: [] }
  const mismatch = mismatchOf(transaction, found)
  if (mismatch !== undefined) return { booking: { ...base, note: `Not settled: ${mismatch}` }, payments: [] }
  const status = transaction.returned ? 'RETURNED' : 'EXECUTED'
  const reason = transaction.returnReason ? describeReason({ code: transaction.returnReason.code, ...(transaction.returnReason.description ? { additionalInformation: transaction.returnReason.description } : {}) }) : undefined
  const message = `${transaction.returned ? 'Returned' : 'Booked'} in the ${context.fileName}${reason ? `: ${reason.code} ${reason.description}` : ''}`
  const payments: ReportedPayment[] = []
  for (const sent of found) {
    const applied = await context.listener.onPaymentStatus(context.trx, fileReportOf(sent.item, sent.messageId, { status, transaction, message, ...(reason ? { reason } : {}) }))
    payments.push({
      paymentId: sent.instruction.paymentId,
      endToEndId: sent.instruction.endToEndId,
      paymentInformationId: sent.paymentInformationId,
      ...(reason ? { reason: { code: reason.code, message: reason.description } } : {}),
      previousStatus: applied.from,
      status: applied.to,
      outcome: applied.from !== applied.to ? 'MOVED' : 'IGNORED',
    })
  }
  const moved = payments.filter((payment) => payment.outcome === 'MOVED')
  const outcome = moved.length === 0 ? 'UNMATCHED' : transaction.returned ? 'RETURNED' : 'RECONCILED'
  return {
    booking: { ...base, outcome, paymentIds: moved.map((payment) => payment.paymentId), ...(moved.length === 0 ? { note: 'Its payments had moved past what it proves' } : {}) },
    payments,
  }
}
