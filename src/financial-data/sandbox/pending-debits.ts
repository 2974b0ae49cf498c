import type { Executor } from '../../db/database.js'
import type { AccountsTable, SandboxInstructionsTable } from '../../db/schema.js'
import { reportPendingEntries, withdrawPendingEntries } from '../bookings/pending-entries.js'
import { REASONS, type ReasonCode } from './bank-codes.js'
import { BANK_ORIGINATOR } from './bank-connector.js'
import { bankReference, executionEntry } from './instruction-entries.js'
import { debitsAccount } from './instruction-rules.js'

/**
 * What the sandbox bank shows pending on the own account (reference §2.3 PendingTransaction): the debit of a
 * credit transfer it holds — from the moment it has it (ACCEPTED, or PENDING_AT_BANK waiting for its date) until
 * it books it. The pending entry is the execution as the bank expects to book it: dated the execution date
 * (provisional: the booking is dated the day the bank processes it), with the execution's entry reference, so the
 * booking ends it (BOOKED, bookings/pending-entries.ts); a transfer it fails (AM04 on its date) withdraws it.
 * A direct debit's collection is not shown: only money the bank holds back for an instruction is.
 */
export async function showPendingDebit(
  trx: Executor,
  account: Pick<AccountsTable, 'id' | 'organization_id' | 'currency'>,
  instruction: SandboxInstructionsTable,
): Promise<void> {
  if (!debitsAccount({ paymentType: instruction.payment_type })) return
  if (instruction.status === 'ACCEPTED' || instruction.status === 'PENDING_AT_BANK') {
    const entry = executionEntry(instruction, instruction.execution_date, instruction.scheme ?? undefined)
    await reportPendingEntries(trx, account, [entry], BANK_ORIGINATOR)
  } else if (instruction.status === 'FAILED') {
    // The bank's reason, as the payment's FAILED event gives it: e.g. "Insufficient funds" (AM04).
    const code = instruction.reason_code as ReasonCode | null
    await withdrawPendingEntries(trx, account, [bankReference('X', instruction.id)], BANK_ORIGINATOR, code ? REASONS[code] : 'Failed')
  }
}
