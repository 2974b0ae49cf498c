import type { Executor } from '../../db/database.js'
import { accountRepo } from '../../financial-data/accounts/index.js'
import { SANDBOX_CONNECTOR, type PaymentStatusReport } from '../../financial-data/sandbox/index.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { connectionRepo } from '../connections/connection.repo.js'
import { sentPaymentByEndToEndId } from '../files-in/booking-matches.js'
import type { IsoStatus } from '../files-in/pain002.model.js'
import { answerMessageId, notificationFile, reportVersionOf, statusReportFile } from './answer-files.js'
import { simulatedBankRepo } from './simulated-bank.repo.js'

/** The ISO status a pain.002 gives the sandbox bank's statuses before booking. */
const REPORTED: Partial<Record<PaymentStatusReport['status'], IsoStatus>> = { ACCEPTED: 'ACCP', PENDING_AT_BANK: 'PDNG', FAILED: 'RJCT' }

/**
 * The simulated bank's answer to a change of one of its instructions (bank-connector.ts's FileAnswer), for an
 * account on a connection whose other side it is: a pain.002 for an acceptance, a pending date or a rejection, a
 * camt.054 for a booking (the execution, or the return with its reason). The file is kept as an answer to deliver
 * (delivery.ts) in the bank step's transaction; the payment moves when it reaches Kassa, as a real bank's would.
 * @returns false for every other report: the payments' listener takes it.
 */
export async function answerByFile(trx: Executor, report: PaymentStatusReport): Promise<boolean> {
  if (report.connector !== SANDBOX_CONNECTOR) return false
  const connectionId = await accountRepo.connectionIdOf(trx, report.accountId)
  const connection = connectionId ? await connectionRepo.find(trx, report.organizationId, { id: connectionId }) : undefined
  if (!connection || connection.simulated_bank !== 1) return false
  const sent = await sentPaymentByEndToEndId(trx, report.organizationId, connection.id, report.endToEndId)
  if (!sent) return false
  const original = {
    messageId: sent.messageId,
    messageType: sent.instruction.paymentType === 'DIRECT_DEBIT' ? connection.direct_debit_version : connection.credit_transfer_version,
  }
  const payment = { messageId: sent.messageId, paymentInformationId: sent.paymentInformationId, endToEndId: report.endToEndId }
  let answer: { messageType: string; content: string } | undefined
  if ((report.status === 'EXECUTED' || report.status === 'RETURNED') && report.transaction) {
    const account = await accountRepo.find(trx, report.organizationId, { id: report.accountId })
    const iban = (JSON.parse(account!.identifiers) as AccountIdentifier[]).find((identifier) => identifier.type === 'IBAN')!.number
    answer = { messageType: 'camt.054.001.08', content: notificationFile(answerMessageId('N'), { iban, currency: account!.currency }, report.transaction, payment) }
  } else {
    const status = REPORTED[report.status]
    if (status === undefined) return false
    const reason = report.reason ? { code: report.reason.code, additionalInformation: report.reason.description } : undefined
    const content = statusReportFile(answerMessageId('S'), original, [{ ...payment, status, ...(reason ? { reason } : {}) }])
    answer = { messageType: reportVersionOf(original.messageType), content }
  }
  await simulatedBankRepo.insertAnswer(trx, {
    id: newId(),
    organization_id: report.organizationId,
    connection_id: connection.id,
    message_type: answer.messageType,
    content: answer.content,
    created: nowIso(),
    delivered: null,
  })
  return true
}
