import { createHash } from 'node:crypto'
import type { Database, Executor } from '../../db/database.js'
import type { BankFilesTable } from '../../db/schema.js'
import { paymentStatusListener, type PaymentInstruction, type PaymentStatusListener } from '../../financial-data/sandbox/index.js'
import { ApiError } from '../../http/errors.js'
import type { Actor } from '../../iam/actor.js'
import type { CommandContext } from '../../shared/command-context.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { lockFilesConnection } from '../connections/connection.service.js'
import { connectionRepo } from '../connections/connection.repo.js'
import { bankFileRepo, toBankFile } from '../files/bank-file.repo.js'
import { bankFileItemRepo } from '../files-out/bank-file-item.repo.js'
import { fileReportOf } from '../files-out/files-connector.js'
import { paymentInformationIdsOf } from '../files-out/pain-batches.js'
import type { InboundFileResult, ReportedPayment } from './inbound-file.schemas.js'
import { describeReason, paymentStatusOf, reportedStatusOf, unknownIdsOf } from './pain002-status.js'
import { readStatusReport } from './pain002.reader.js'
import type { StatusReport } from './pain002.model.js'

/** Who receives the file and the transaction it is applied in: an HTTP request's, or the inbox reader's (inbox-reader.ts). */
export interface ReceivingContext {
  actor: Pick<Actor, 'organizationId'>
  transaction: CommandContext['transaction']
}

export interface Received {
  /** false: the connection had this file already; `result` is what processing it did the first time. */
  created: boolean
  result: InboundFileResult
}

function sha256Of(xml: string): string {
  return createHash('sha256').update(xml, 'utf8').digest('hex')
}

function listenerOrFail(listener: PaymentStatusListener | undefined): PaymentStatusListener {
  if (!listener) throw new Error('No payment status listener is registered: a status report would move no payment')
  return listener
}

/**
 * Files received from a bank on a FILES connection (issue 12, files in): a pain.002 status report moves the
 * payments of the file it reports on, through the payments domain's listener as any bank report does
 * (bank-connector.ts). Reading happens before the transaction; the payments' moves with their events, the
 * file kept for audit and the idempotent response are written in one.
 */
export function createInboundFileService(database: Database, listener: () => PaymentStatusListener | undefined = paymentStatusListener) {
  return {
    /**
     * Processes a file once per connection and content: the same bytes again change nothing and answer the first result.
     * @throws ApiError not_found (404: no such connection), invalid_request (400: not a FILES connection, malformed XML,
     * a DOCTYPE, a missing id or unknown status), unsupported_message (422: not a pain.002), conflict (409: the same
     * file is being processed by another request).
     */
    async receive(ctx: ReceivingContext, connectionId: string, xml: string): Promise<Received> {
      const { organizationId } = ctx.actor
      const connection = await connectionRepo.find(database.db, organizationId, { id: connectionId })
      if (!connection || connection.deleted_at !== null) throw new ApiError('not_found', `No connection ${connectionId}`)
      const sha256 = sha256Of(xml)
      const known = await bankFileRepo.findByContent(database.db, connectionId, 'INBOUND', sha256)
      if (known?.report) return { created: false, result: JSON.parse(known.report) as InboundFileResult }
      const report = readStatusReport(xml)
      const apply = listenerOrFail(listener())
      const result = await ctx.transaction(async (trx) => {
        // Locked first: two uploads of one file are processed one after the other, and the second sees the first's row.
        await lockFilesConnection(trx, organizationId, connectionId, 'id')
        if (await bankFileRepo.findByContent(trx, connectionId, 'INBOUND', sha256)) {
          throw new ApiError('conflict', 'This file was processed by another request meanwhile; send it again to get its result')
        }
        return applyReport(trx, apply, { organizationId, connectionId, xml, sha256, report })
      })
      return { created: true, result }
    },
  }
}

interface ReceivedFile {
  organizationId: string
  connectionId: string
  xml: string
  sha256: string
  report: StatusReport
}

/** Moves each payment of the original file to the status the report gives it, and keeps the file with the result. */
async function applyReport(trx: Executor, listener: PaymentStatusListener, file: ReceivedFile): Promise<InboundFileResult> {
  const { report } = file
  const items = await bankFileItemRepo.ofMessage(trx, file.connectionId, report.originalMessageId)
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
  const created = nowIso()
  const row: BankFilesTable = {
    id: newId(),
    organization_id: file.organizationId,
    connection_id: file.connectionId,
    direction: 'INBOUND',
    message_type: report.messageType,
    message_id: report.messageId,
    status: 'PROCESSED',
    size: Buffer.byteLength(file.xml, 'utf8'),
    sha256: file.sha256,
    payment_ids: JSON.stringify(payments.filter((payment) => payment.outcome === 'MOVED').map((payment) => payment.paymentId)),
    content: file.xml,
    report: null,
    created,
    updated: created,
  }
  const unknownIds = unknownIdsOf(report, originals)
  const result: InboundFileResult = {
    file: toBankFile(row),
    originalMessageId: report.originalMessageId,
    payments,
    unknown: { ...(items.length === 0 ? { originalMessageId: report.originalMessageId } : {}), ...unknownIds },
  }
  await bankFileRepo.insert(trx, { ...row, report: JSON.stringify(result) })
  return result
}
