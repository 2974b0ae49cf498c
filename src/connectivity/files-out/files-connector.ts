import type { Executor } from '../../db/database.js'
import type { BankFileItemsTable } from '../../db/schema.js'
import { accountRepo } from '../../financial-data/accounts/index.js'
import { BankConnectorError, type BankConnector, type PaymentInstruction, type PaymentStatusReport } from '../../financial-data/sandbox/index.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { bankFileItemRepo } from './bank-file-item.repo.js'
import { groupKeyOf } from './file-groups.js'

export const FILES_CONNECTOR = 'files'

/** A day of the calendar, UTC: a bank reached by files has no clock Kassa can ask. */
function todayUtc(): string {
  return nowIso().slice(0, 10)
}

/** The report of a queued (PENDING_SUBMISSION) or gathered (SENT, the file's MsgId as instruction id) payment. */
export function fileReportOf(item: BankFileItemsTable, messageId: string | null, extra: Partial<PaymentStatusReport> = {}): PaymentStatusReport {
  const instruction = JSON.parse(item.instruction) as PaymentInstruction
  return {
    connector: FILES_CONNECTOR,
    instructionId: messageId ?? item.id,
    paymentId: instruction.paymentId,
    paymentType: instruction.paymentType,
    organizationId: instruction.organizationId,
    accountId: instruction.accountId,
    status: messageId ? 'SENT' : 'PENDING_SUBMISSION',
    bankDate: todayUtc(),
    endToEndId: instruction.endToEndId,
    ...extra,
  }
}

/**
 * The connector of accounts on a FILES connection (bank-connector.ts). `submit` queues the instruction for
 * the connection's next file, in the caller's transaction, and acknowledges PENDING_SUBMISSION; the payment
 * worker later gathers it into a file and reports SENT (file-gathering.ts).
 */
export const filesConnector: BankConnector = {
  name: FILES_CONNECTOR,

  async today() {
    return todayUtc()
  },

  /** @throws BankConnectorError when the account names no connection. */
  async submit(trx: Executor, instruction: PaymentInstruction): Promise<PaymentStatusReport> {
    const queued = await bankFileItemRepo.findByPayment(trx, instruction.organizationId, instruction.paymentId)
    if (queued) return fileReportOf(queued, queued.message_id)
    const connectionId = await accountRepo.connectionIdOf(trx, instruction.accountId)
    if (!connectionId) throw new BankConnectorError(`The account ${instruction.accountId} is on no FILES connection`)
    const row: BankFileItemsTable = {
      id: newId(),
      organization_id: instruction.organizationId,
      connection_id: connectionId,
      payment_id: instruction.paymentId,
      group_key: groupKeyOf(connectionId, instruction),
      instruction: JSON.stringify(instruction),
      file_id: null,
      created: nowIso(),
    }
    await bankFileItemRepo.insert(trx, row)
    return fileReportOf(row, null)
  },

  async find(db: Executor, organizationId: string, paymentId: string) {
    const queued = await bankFileItemRepo.findByPayment(db, organizationId, paymentId)
    return queued ? fileReportOf(queued, queued.message_id) : undefined
  },
}

/**
 * Takes a payment back out of its connection's queue, in the caller's transaction (the payments domain cancels
 * it): it never reaches a file. Nothing when it is not queued.
 */
export const withdrawQueuedPayment = bankFileItemRepo.withdraw
