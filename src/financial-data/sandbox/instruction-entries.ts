import type { SandboxInstructionsTable } from '../../db/schema.js'
import type { BookedEntry } from '../bookings/booking.service.js'
import type { TransactionCounterparty } from '../transactions/transaction.schemas.js'
import { BTC, reasonOf, type ReasonCode } from './bank-codes.js'
import { executionAmount } from './instruction-rules.js'

/** The entries the sandbox bank books for an instruction, on the day it processes it. Pure. */

type Instruction = Pick<
  SandboxInstructionsTable,
  | 'id'
  | 'payment_type'
  | 'amount'
  | 'counterparty_name'
  | 'counterparty_iban'
  | 'counterparty_bic'
  | 'reference'
  | 'end_to_end_id'
  | 'mandate_reference'
>

function counterpartyOf(instruction: Instruction): TransactionCounterparty {
  const market = instruction.counterparty_iban.slice(0, 2)
  return {
    name: instruction.counterparty_name,
    account: {
      market,
      identifiers: [{ market, type: 'IBAN', number: instruction.counterparty_iban }],
      ...(instruction.counterparty_bic ? { bic: instruction.counterparty_bic } : {}),
    },
  }
}

function common(instruction: Instruction) {
  return {
    endToEndId: instruction.end_to_end_id,
    counterparty: counterpartyOf(instruction),
    ...(instruction.reference ? { reference: instruction.reference } : {}),
    ...(instruction.mandate_reference ? { mandateReference: instruction.mandate_reference } : {}),
  }
}

/** What the bank booked an entry as: an execution (X), a return (R), a transfer's credit (C) or an injected entry (I). */
export type EntryKind = 'X' | 'R' | 'C' | 'I'

/**
 * The bank's reference of an entry it books for an instruction (or an injection): its kind and the id, 34
 * characters, within camt's AcctSvcrRef (Max35Text), so the bank's files carry it and an import knows the entry.
 */
export function bankReference(kind: EntryKind, id: string): string {
  return `K${kind}${id.replaceAll('-', '')}`
}

/** The execution: a credit transfer's debit, or a direct debit's collection credited. */
export function executionEntry(instruction: Instruction, day: string, scheme?: string): BookedEntry {
  const isTransfer = instruction.payment_type === 'CREDIT_TRANSFER'
  const remittance = instruction.reference ? ` ${instruction.reference}` : ''
  return {
    entryReference: bankReference('X', instruction.id),
    amount: executionAmount({ paymentType: instruction.payment_type, amount: instruction.amount }),
    date: day,
    valueDate: day,
    description: isTransfer ? `${instruction.counterparty_name}${remittance}` : `Collection ${instruction.counterparty_name}${remittance}`,
    bankTransactionCode: isTransfer ? BTC.sepaCreditIssued : scheme === 'SDD_B2B' ? BTC.directDebitCollectedB2b : BTC.directDebitCollected,
    ...common(instruction),
  }
}

/** The return of an executed instruction: the opposite entry, with the return reason. */
export function returnEntry(instruction: Instruction, day: string, reasonCode: ReasonCode): BookedEntry {
  const isTransfer = instruction.payment_type === 'CREDIT_TRANSFER'
  const reason = reasonOf(reasonCode)
  return {
    entryReference: bankReference('R', instruction.id),
    amount: -executionAmount({ paymentType: instruction.payment_type, amount: instruction.amount }),
    date: day,
    valueDate: day,
    description: `Return ${reason.code} ${reason.description}: ${instruction.counterparty_name}`,
    bankTransactionCode: isTransfer ? BTC.creditTransferReturned : BTC.directDebitReturned,
    returnReason: reason,
    ...common(instruction),
  }
}

/** A transfer between two of the organization's accounts at this bank: the credit on the receiving one. */
export function internalCreditEntry(instruction: Instruction, day: string, source: { name: string; iban: string }): BookedEntry {
  const market = source.iban.slice(0, 2)
  return {
    entryReference: bankReference('C', instruction.id),
    amount: instruction.amount,
    date: day,
    valueDate: day,
    description: `Transfer from ${source.name}${instruction.reference ? ` ${instruction.reference}` : ''}`,
    bankTransactionCode: BTC.bookTransferReceived,
    endToEndId: instruction.end_to_end_id,
    counterparty: { name: source.name, account: { market, identifiers: [{ market, type: 'IBAN', number: source.iban }] } },
    ...(instruction.reference ? { reference: instruction.reference } : {}),
  }
}
