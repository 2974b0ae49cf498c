import { createHash } from 'node:crypto'
import type { Database } from '../../db/database.js'
import type { BankFilesTable } from '../../db/schema.js'
import { accountRepo } from '../../financial-data/accounts/index.js'
import { paymentStatusListener, type PaymentInstruction, type PaymentStatusListener } from '../../financial-data/sandbox/index.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { connectionRepo } from '../connections/connection.repo.js'
import { bankFileRepo } from '../files/bank-file.repo.js'
import { bankFileItemRepo } from './bank-file-item.repo.js'
import { fileReportOf } from './files-connector.js'
import { isDue, messageIdOf } from './file-groups.js'
import { refusedPayments } from './file-refusals.js'
import { writeGroupFile } from './pain-batches.js'

export interface Gathered {
  made: number
  /** Groups whose file could not be made (e.g. BankFileError: a value the message cannot carry); retried next pass. */
  failures: { groupKey: string; error: unknown }[]
}

/**
 * Makes the file of every group whose oldest queued payment has waited its connection's batching window, one
 * transaction per file; a group that fails does not hold up the others.
 */
export async function gatherDueFiles(database: Database, now: Date = new Date(), listener: PaymentStatusListener | undefined = paymentStatusListener()): Promise<Gathered> {
  if (!listener) throw new Error('No payment status listener is registered: files would be made without moving their payments')
  const due = (await bankFileItemRepo.queuedGroups(database.db)).filter((group) => isDue(group.oldest, group.batchingWindowSeconds, now))
  const gathered: Gathered = { made: 0, failures: [] }
  for (const { groupKey } of due) {
    try {
      if (await gatherGroup(database, groupKey, now, listener)) gathered.made += 1
    } catch (error) {
      gathered.failures.push({ groupKey, error })
    }
  }
  return gathered
}

/**
 * One file, in ONE transaction: its payments move to SENT (each with its event, through the listener, with the
 * file's MsgId), their queue items name the file, and the file is recorded with its content. Writing it to the
 * outboxDir happens after commit (outbox-writer.ts). Lock order as bank-connector.ts says: the listener locks
 * each payment first, then the items are claimed — a cancel that withdrew one meanwhile has made its payment
 * CANCELLED (the listener leaves it) and removed its item (not claimed), so the file carries exactly the
 * payments moved to SENT. A payment whose own data the file cannot carry FAILS instead, with the writer's reason
 * (file-refusals.ts). @returns false when nothing was left to gather (another process made the file).
 */
async function gatherGroup(database: Database, groupKey: string, now: Date, listener: PaymentStatusListener): Promise<boolean> {
  return database.transaction(async (trx) => {
    const candidates = await bankFileItemRepo.queued(trx, groupKey)
    const [first] = candidates
    if (!first) return false
    const connection = await connectionRepo.find(trx, first.organization_id, { id: first.connection_id })
    const instruction = JSON.parse(first.instruction) as PaymentInstruction
    const account = await accountRepo.find(trx, first.organization_id, { id: instruction.accountId })
    if (!connection || !account) throw new Error(`The queued payment ${first.payment_id} names a connection or account that does not exist`)
    const fileId = newId()
    const messageId = messageIdOf(fileId)
    const messageType = instruction.paymentType === 'CREDIT_TRANSFER' ? connection.credit_transfer_version : connection.direct_debit_version
    const refused = refusedPayments({ connection, account, messageId, created: now }, candidates.map((item) => JSON.parse(item.instruction) as PaymentInstruction))
    for (const item of candidates) {
      const refusal = refused.get(item.payment_id)
      if (refusal === undefined) {
        await listener.onPaymentStatus(trx, fileReportOf(item, messageId, { message: `Sent to the bank in the ${messageType} file ${messageId}` }))
        continue
      }
      // The payment's own data cannot go in a file: it fails now rather than wait in the queue for ever.
      const reason = { code: 'NARR', description: `A ${messageType} file cannot carry it: ${refusal}` }
      await listener.onPaymentStatus(trx, fileReportOf(item, null, { status: 'FAILED', reason, message: reason.description }))
      await bankFileItemRepo.withdraw(trx, item.organization_id, item.payment_id)
    }
    const sending = candidates.filter((item) => !refused.has(item.payment_id))
    const claimed = await bankFileItemRepo.claim(trx, fileId, sending.map((item) => item.id))
    if (claimed.length === 0) return false
    const instructions = claimed.map((item) => JSON.parse(item.instruction) as PaymentInstruction)
    const file = writeGroupFile({ connection, account, instructions, messageId, created: now })
    const created = nowIso()
    const row: BankFilesTable = {
      id: fileId,
      organization_id: first.organization_id,
      connection_id: connection.id,
      direction: 'OUTBOUND',
      message_type: file.messageType,
      message_id: messageId,
      status: connection.outbox_dir ? 'PENDING_WRITE' : 'READY',
      size: Buffer.byteLength(file.xml, 'utf8'),
      sha256: createHash('sha256').update(file.xml, 'utf8').digest('hex'),
      payment_ids: JSON.stringify(instructions.map((payment) => payment.paymentId)),
      content: file.xml,
      report: null,
      created,
      updated: created,
    }
    await bankFileRepo.insert(trx, row)
    return true
  })
}
