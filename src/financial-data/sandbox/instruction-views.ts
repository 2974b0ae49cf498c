import type { SandboxInstructionsTable } from '../../db/schema.js'
import type { Transaction } from '../transactions/transaction.schemas.js'
import { REASONS, type ReasonCode } from './bank-codes.js'
import type { PaymentStatusReport } from './bank-connector.js'
import type { InstructionFacts } from './instruction-rules.js'
import { SANDBOX_CONNECTOR } from './sandbox-bank.contract.js'

/** A stored instruction as the pure rules see it, and as the bank reports it to payments. */

export function factsOf(row: SandboxInstructionsTable): InstructionFacts {
  return {
    id: row.id,
    accountId: row.account_id,
    paymentType: row.payment_type,
    amount: row.amount,
    currency: row.currency,
    executionDate: row.execution_date,
    counterpartyIban: row.counterparty_iban,
    counterpartyName: row.counterparty_name,
    status: row.status,
  }
}

export function reportOf(row: SandboxInstructionsTable, bankDate: string, transaction?: Transaction): PaymentStatusReport {
  return {
    connector: SANDBOX_CONNECTOR,
    instructionId: row.id,
    paymentId: row.payment_id,
    paymentType: row.payment_type,
    organizationId: row.organization_id,
    accountId: row.account_id,
    status: row.status,
    ...(row.reason_code ? { reason: { code: row.reason_code, description: REASONS[row.reason_code as ReasonCode] ?? row.reason_code } } : {}),
    bankDate,
    endToEndId: row.end_to_end_id,
    ...(transaction ? { transaction } : {}),
  }
}
