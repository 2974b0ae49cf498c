import type { PaymentInstruction } from '../../financial-data/sandbox/index.js'

/**
 * Which file a queued payment goes in (issue 12: one file per connection, own account, scheme, execution date
 * and batch-booking choice). The kind follows from the scheme (SCT, SCT_INST: pain.001; SDD_CORE, SDD_B2B:
 * pain.008), and so does batch booking: instant payments are booked one by one (batchBooking false), the others
 * as one entry per payment information.
 */
export function groupKeyOf(connectionId: string, instruction: PaymentInstruction): string {
  return JSON.stringify([connectionId, instruction.accountId, instruction.paymentType, instruction.scheme ?? '', instruction.executionDate, batchBookingOf(instruction)])
}

/** SCT Inst payments are not batch-booked: each is its own entry on the statement. */
export function batchBookingOf(instruction: Pick<PaymentInstruction, 'scheme'>): boolean {
  return instruction.scheme !== 'SCT_INST'
}

/** The pain local instrument of a Kassa scheme: INST for SCT Inst, CORE and B2B for the direct debit schemes, none for SCT. */
export function localInstrumentOf(scheme: string | undefined): string | undefined {
  return { SCT_INST: 'INST', SDD_CORE: 'CORE', SDD_B2B: 'B2B' }[scheme ?? '']
}

/**
 * Whether the group's window has passed: its oldest payment has waited the connection's batching window
 * (0: gathered at the next pass).
 */
export function isDue(oldest: string, batchingWindowSeconds: number, now: Date): boolean {
  return Date.parse(oldest) + batchingWindowSeconds * 1000 <= now.getTime()
}

/** A MsgId from the file's id: 32 hex digits, within Max35Text and the SEPA identifier characters. */
export function messageIdOf(fileId: string): string {
  return fileId.replaceAll('-', '').toUpperCase()
}

/**
 * A name the EPC guidelines let through: at most 70 characters (docs/bank-files.md, "Limits and characters"),
 * counted as the schema counts them, in Unicode characters; cut at 70 and trailing spaces dropped.
 */
export function shortenedName(name: string, limit: number): string {
  const characters = Array.from(name)
  return characters.length <= limit ? name : characters.slice(0, limit).join('').trimEnd()
}
