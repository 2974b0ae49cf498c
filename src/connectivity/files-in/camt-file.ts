import type { PaymentStatusListener } from '../../financial-data/sandbox/index.js'
import type { createStatementService } from '../../financial-data/statements/statement.service.js'
import { MESSAGE_KINDS, SUPPORTED_VERSIONS } from '../../financial-data/statements/camt-model.js'
import type { StatementFile } from '../../financial-data/statements/statement-file.js'
import type { Transaction } from '../../financial-data/transactions/transaction.schemas.js'
import type { Trx } from '../../shared/command-context.js'
import type { AppliedFile } from './applied-file.js'
import { matchBooking } from './booking-matches.js'
import type { MatchedBooking, ReportedPayment } from './inbound-file.schemas.js'

/** camt.052, camt.053 and camt.054 in the versions the statements' reader takes: 'camt.054.001.08' → true. */
export function isCamtMessage(messageType: string): boolean {
  const match = /^(camt\.\d{3})\.(\d{3}\.\d{2})$/.exec(messageType)
  return match !== null && match[1]! in MESSAGE_KINDS && (SUPPORTED_VERSIONS as readonly string[]).includes(match[2]!)
}

export interface CamtFile {
  statements: ReturnType<typeof createStatementService>
  listener: PaymentStatusListener
  organizationId: string
  connectionId: string
  file: StatementFile
}

/**
 * A camt.054 notification, camt.053 statement or camt.052 report from the bank: its booked entries are booked
 * on the accounts exactly as an imported statement's (POST /financial-data/v2/statements: the same service, so an
 * entry the account has already — same bank reference — is not booked twice), and each transaction it books, or
 * reports again while it is still NOT_RECONCILED, is matched to the payments sent on the connection
 * (booking-matches.ts), all in the caller's transaction.
 */
export async function applyCamtFile(trx: Trx, camt: CamtFile): Promise<AppliedFile> {
  const { header } = camt.file
  const messageType = `${header.kind}.${header.version}`
  const messageId = header.messageId ?? camt.file.sha256.slice(0, 35)
  // What it booked, and what it reports again that no payment was matched to yet (a camt.053 after its day's camt.054).
  const booked: Transaction[] = []
  const statement = await camt.statements.import({ transaction: (work) => work(trx) }, camt.file, {
    booked: async (_trx, created, present) => {
      booked.push(...created, ...present.filter((transaction) => transaction.reconciliationStatus === 'NOT_RECONCILED'))
    },
  })
  const context = { trx, listener: camt.listener, organizationId: camt.organizationId, connectionId: camt.connectionId, fileName: `${messageType} ${messageId}` }
  const bookings: MatchedBooking[] = []
  const payments: ReportedPayment[] = []
  for (const transaction of booked) {
    const matched = await matchBooking(context, transaction)
    bookings.push(matched.booking)
    payments.push(...matched.payments)
  }
  return { messageType, messageId, result: { payments, statement, bookings } }
}
