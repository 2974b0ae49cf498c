import type { Executor } from '../../db/database.js'
import type { PaymentInstruction, PaymentStatusListener } from '../../financial-data/sandbox/index.js'
import { bankFileItemRepo } from '../files-out/bank-file-item.repo.js'
import { fileReportOf } from '../files-out/files-connector.js'
import { paymentInformationIdsOf } from '../files-out/pain-batches.js'
import type { AppliedFile } from './applied-file.js'
import type { ReportedPayment } from './inbound-file.schemas.js'
import { describeReason, paymentStatusOf, reportedStatusOf, unknownIdsOf } from './pain002-status.js'
import type { StatusReport } from './pain002.model.js'

/** A pain.002: moves each payment of the original file to the status the report gives it (docs/bank-files.md). */
export async function applyStatusReport(trx: Executor, listener: PaymentStatusListener, connectionId: string, report: StatusReport): Promise<AppliedFile> {
  const items = await bankFileItemRepo.ofMessage(trx, connectionId, report.originalMessageId)
  const instructions = items.map((item) => JSON.parse(item.instruction) as PaymentInstruction)
  const informationIds = paymentInformationIdsOf(report.originalMessageId, instructions)
  const originals = instructions.map((instruction) => ({ endToEndId: instruction.endToEndId, paymentInformationId: informationIds.get(instruction.paymentId)! }))
  const payments: ReportedPayment[] = []
  for (const [index, item] of items.entries()) {
    const original = originals[index]!
    const base = { paymentId: instructions[index]!.paymentId, ...original }
    const reported = reportedStatusOf(report, original)
    const target = reported && paymentStatusOf(reported.status)
    if (!reported || !target) {
      payments.push({ ...base, outcome: 'NOT_REPORTED' })
      continue
    }
    const reason = reported.reason && target === 'FAILED' ? describeReason(reported.reason) : undefined
    // The event's message names the reason too: the event keeps what the bank said (issue 12).
    const message = `${reported.status} in the ${report.messageType} ${report.messageId}${reason ? `: ${reason.code} ${reason.description}` : ''}`
    const applied = await listener.onPaymentStatus(trx, fileReportOf(item, report.originalMessageId, { status: target, message, ...(reason ? { reason } : {}) }))
    const outcome = applied.from !== applied.to ? 'MOVED' : applied.to === target ? 'UNCHANGED' : 'IGNORED'
    payments.push({ ...base, isoStatus: reported.status, ...(reason ? { reason: { code: reason.code, message: reason.description } } : {}), previousStatus: applied.from, status: applied.to, outcome })
  }
  const unknownIds = unknownIdsOf(report, originals)
  return {
    messageType: report.messageType,
    messageId: report.messageId,
    result: {
      originalMessageId: report.originalMessageId,
      payments,
      unknown: { ...(items.length === 0 ? { originalMessageId: report.originalMessageId } : {}), ...unknownIds },
    },
  }
}
