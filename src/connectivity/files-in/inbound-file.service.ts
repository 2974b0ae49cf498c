import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { Database } from '../../db/database.js'
import type { BankFilesTable } from '../../db/schema.js'
import { accountRepo } from '../../financial-data/accounts/index.js'
import { paymentStatusListener, type PaymentStatusListener } from '../../financial-data/sandbox/index.js'
import { createStatementService } from '../../financial-data/statements/statement.service.js'
import type { StatementFile } from '../../financial-data/statements/statement-file.js'
import { ApiError } from '../../http/errors.js'
import type { Actor } from '../../iam/actor.js'
import type { CommandContext, Trx } from '../../shared/command-context.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { lockFilesConnection } from '../connections/connection.service.js'
import { connectionRepo } from '../connections/connection.repo.js'
import { bankFileRepo, toBankFile } from '../files/bank-file.repo.js'
import { movedPaymentIds, type AppliedFile } from './applied-file.js'
import { applyCamtFile, isCamtMessage } from './camt-file.js'
import type { InboundFileResult } from './inbound-file.schemas.js'
import { isoMessageTypeOf } from './message-type.js'
import { readStatusReport } from './pain002.reader.js'
import type { StatusReport } from './pain002.model.js'
import { applyStatusReport } from './status-report-file.js'

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

/** A file read before its transaction: a status report, or a bank-to-customer message planned against the accounts. */
type ReadFile = { kind: 'status-report'; report: StatusReport } | { kind: 'camt'; file: StatementFile }

function sha256Of(xml: string): string {
  return createHash('sha256').update(xml, 'utf8').digest('hex')
}

function listenerOrFail(listener: PaymentStatusListener | undefined): PaymentStatusListener {
  if (!listener) throw new Error('No payment status listener is registered: a bank file would move no payment')
  return listener
}

/**
 * Files received from a bank on a FILES connection (issue 12, files in): a pain.002 status report moves the
 * payments of the file it reports on; a camt.054, camt.053 or camt.052 books its entries and reconciles them to the
 * payments sent on the connection — both through the payments domain's listener, as any bank report
 * (bank-connector.ts). Reading happens before the transaction; the bookings, the payments' moves with their events,
 * the file kept for audit and the idempotent response are written in one.
 */
export function createInboundFileService(database: Database, listener: () => PaymentStatusListener | undefined = paymentStatusListener) {
  const statements = createStatementService(database)

  /** Reads the file; a camt must be about accounts on this connection. */
  async function read(organizationId: string, connectionId: string, xml: string): Promise<ReadFile> {
    const messageType = isoMessageTypeOf(xml)
    if (!isCamtMessage(messageType)) return { kind: 'status-report', report: readStatusReport(xml) }
    const file = await statements.read(organizationId, Readable.from([xml]))
    for (const plan of file.plans) {
      if ((await accountRepo.connectionIdOf(database.db, plan.account.id)) !== connectionId) {
        throw new ApiError('invalid_request', `The ${messageType} is about account ${plan.account.id}, which is not on connection ${connectionId}`, [
          { code: 'account_not_on_connection', field: plan.path, error: `account ${plan.account.id} is on another connection or none` },
        ])
      }
    }
    return { kind: 'camt', file }
  }

  async function apply(trx: Trx, organizationId: string, connectionId: string, file: ReadFile): Promise<AppliedFile> {
    const apply = listenerOrFail(listener())
    if (file.kind === 'status-report') return applyStatusReport(trx, apply, connectionId, file.report)
    return applyCamtFile(trx, { statements, listener: apply, organizationId, connectionId, file: file.file })
  }

  return {
    /**
     * Processes a file once per connection and content: the same bytes again change nothing and answer the first result.
     * @throws ApiError not_found (404: no such connection), invalid_request (400: not a FILES connection, malformed XML,
     * a DOCTYPE, a missing id, an unknown status, a statement that does not add up, names an unknown account or one
     * on another connection), unsupported_message (422: no pain.002 or camt), conflict (409: the same file is being
     * processed by another request).
     */
    async receive(ctx: ReceivingContext, connectionId: string, xml: string): Promise<Received> {
      const { organizationId } = ctx.actor
      const connection = await connectionRepo.find(database.db, organizationId, { id: connectionId })
      if (!connection || connection.deleted_at !== null) throw new ApiError('not_found', `No connection ${connectionId}`)
      const sha256 = sha256Of(xml)
      const known = await bankFileRepo.findByContent(database.db, connectionId, 'INBOUND', sha256)
      if (known?.report) return { created: false, result: JSON.parse(known.report) as InboundFileResult }
      const file = await read(organizationId, connectionId, xml)
      const result = await ctx.transaction(async (trx) => {
        // Locked first: two uploads of one file are processed one after the other, and the second sees the first's row.
        await lockFilesConnection(trx, organizationId, connectionId, 'id')
        if (await bankFileRepo.findByContent(trx, connectionId, 'INBOUND', sha256)) {
          throw new ApiError('conflict', 'This file was processed by another request meanwhile; send it again to get its result')
        }
        const applied = await apply(trx, organizationId, connectionId, file)
        const created = nowIso()
        const row: BankFilesTable = {
          id: newId(),
          organization_id: organizationId,
          connection_id: connectionId,
          direction: 'INBOUND',
          message_type: applied.messageType,
          message_id: applied.messageId,
          status: 'PROCESSED',
          size: Buffer.byteLength(xml, 'utf8'),
          sha256,
          payment_ids: JSON.stringify(movedPaymentIds(applied)),
          content: xml,
          report: null,
          created,
          updated: created,
        }
        const processed: InboundFileResult = { file: toBankFile(row), ...applied.result }
        await bankFileRepo.insert(trx, { ...row, report: JSON.stringify(processed) })
        return processed
      })
      return { created: true, result }
    },
  }
}
