import { validateIBAN } from 'ibantools'
import { RETURNING_IBAN, type ReasonCode } from './bank-codes.js'

/**
 * What the sandbox bank decides about payment instructions, pure: at submission, and on each
 * business day it processes. The impure side (sandbox-bank.ts) loads the state, applies the steps
 * and books the entries.
 *
 *   submit ─▶ FAILED (AC01 bad IBAN, AM03 wrong currency, AM12 bad amount, AC04 an amount ending in .04 — a
 *                     scripted closed account —, AM04 insufficient funds)
 *          ─▶ PENDING_AT_BANK   dated after the bank's today: waits for its date, nothing reserved
 *          ─▶ ACCEPTED          due: a credit transfer reserves its amount
 *   on its date: PENDING_AT_BANK ─▶ ACCEPTED (reserve) | FAILED AM04
 *   ACCEPTED ─▶ EXECUTED  (booked on the day processed; the reservation becomes the booking)
 *   EXECUTED ─▶ RETURNED  (the opposite entry: AC04 for the returning IBAN, MD06 for a counterparty whose
 *                          name contains RETURN)
 */

export type PaymentType = 'CREDIT_TRANSFER' | 'DIRECT_DEBIT'
export type InstructionStatus = 'PENDING_AT_BANK' | 'ACCEPTED' | 'EXECUTED' | 'FAILED' | 'RETURNED'

/** The part of an instruction the rules look at. Amount is positive minor units. */
export interface InstructionFacts {
  id: string
  accountId: string
  paymentType: PaymentType
  amount: number
  currency: string
  executionDate: string
  counterpartyIban: string
  counterpartyName: string
  status: InstructionStatus
}

/** An account as the rules see it: its booked balance now, and what accepted instructions hold. */
export interface Funds {
  currency: string
  booked: number
  reserved: number
}

export interface Decision {
  status: InstructionStatus
  reasonCode?: ReasonCode
}

/** Whether the instruction moves money out of the own account (and so needs funds). */
export function debitsAccount(instruction: Pick<InstructionFacts, 'paymentType'>): boolean {
  return instruction.paymentType === 'CREDIT_TRANSFER'
}

/** The signed amount the execution books on the own account. */
export function executionAmount(instruction: Pick<InstructionFacts, 'paymentType' | 'amount'>): number {
  return debitsAccount(instruction) ? -instruction.amount : instruction.amount
}

/**
 * Why the beneficiary's side returns the payment after execution, if it does (the scripted outcomes testers ask
 * for, docs/sandbox-bank.md): the returning IBAN as a closed account (AC04), a counterparty named with "RETURN"
 * as a refund the customer asked for (MD06).
 */
export function returnReasonOf(instruction: Pick<InstructionFacts, 'counterpartyIban' | 'counterpartyName'>): ReasonCode | undefined {
  if (instruction.counterpartyIban === RETURNING_IBAN) return 'AC04'
  if (instruction.counterpartyName.toUpperCase().includes('RETURN')) return 'MD06'
  return undefined
}

/** The scripted rejection: an amount whose last two minor-unit digits are 04 (EUR 12.04) is to a closed account. */
function isScriptedRejection(instruction: Pick<InstructionFacts, 'amount'>): boolean {
  return instruction.amount % 100 === 4
}

/** What a credit transfer can draw on: booked balance minus what accepted instructions hold. */
export function disposable(funds: Funds): number {
  return funds.booked - funds.reserved
}

/** The checks any bank makes on receipt, whatever the date. */
export function formatProblem(instruction: InstructionFacts, funds: Funds): ReasonCode | undefined {
  if (!Number.isSafeInteger(instruction.amount) || instruction.amount <= 0) return 'AM12'
  if (instruction.currency !== funds.currency) return 'AM03'
  if (!validateIBAN(instruction.counterpartyIban).valid) return 'AC01'
  if (isScriptedRejection(instruction)) return 'AC04'
  return undefined
}

/** Funds check on the day an instruction becomes due; reserves on acceptance (mutates `funds`). */
function acceptOrFail(instruction: InstructionFacts, funds: Funds): Decision {
  if (!debitsAccount(instruction)) return { status: 'ACCEPTED' }
  if (disposable(funds) < instruction.amount) return { status: 'FAILED', reasonCode: 'AM04' }
  funds.reserved += instruction.amount
  return { status: 'ACCEPTED' }
}

/** The bank's answer to a new instruction; reserves on `funds` when a credit transfer is accepted. */
export function decideSubmission(instruction: InstructionFacts, funds: Funds, today: string): Decision {
  const problem = formatProblem(instruction, funds)
  if (problem) return { status: 'FAILED', reasonCode: problem }
  if (instruction.executionDate > today) return { status: 'PENDING_AT_BANK' }
  return acceptOrFail(instruction, funds)
}

export interface Step {
  instructionId: string
  status: InstructionStatus
  reasonCode?: ReasonCode
  /** The entry the step books on the own account (signed minor units), dated the day processed. */
  booking?: { kind: 'EXECUTION' | 'RETURN'; amount: number }
  /** A transfer to another account of the same bank's organization: the credit booked there. */
  credit?: { accountId: string; amount: number }
}

/**
 * Everything that happens to open instructions on `day`, in order: waiting instructions that are
 * due get their funds check (oldest first), accepted ones that are due are executed and booked,
 * and executions to the returning IBAN come back. `instructions` must be in submission order;
 * `funds` is updated as the steps would change it.
 */
export function planDay(
  day: string,
  instructions: readonly InstructionFacts[],
  funds: ReadonlyMap<string, Funds>,
  ownAccountByIban: ReadonlyMap<string, string> = new Map(),
): Step[] {
  const steps: Step[] = []
  const status = new Map(instructions.map((instruction) => [instruction.id, instruction.status]))
  const fundsOf = (instruction: InstructionFacts): Funds => {
    const account = funds.get(instruction.accountId)
    if (!account) throw new Error(`No funds known for account ${instruction.accountId}`)
    return account
  }
  for (const instruction of instructions) {
    if (status.get(instruction.id) !== 'PENDING_AT_BANK' || instruction.executionDate > day) continue
    const decision = acceptOrFail(instruction, fundsOf(instruction))
    status.set(instruction.id, decision.status)
    steps.push({ instructionId: instruction.id, ...decision })
  }
  for (const instruction of instructions) {
    if (status.get(instruction.id) !== 'ACCEPTED' || instruction.executionDate > day) continue
    const account = fundsOf(instruction)
    const amount = executionAmount(instruction)
    account.booked += amount
    if (debitsAccount(instruction)) account.reserved -= instruction.amount
    status.set(instruction.id, 'EXECUTED')
    // A transfer between two accounts the bank holds for the organization lands on the other one the same day.
    const creditedAccountId = debitsAccount(instruction) ? ownAccountByIban.get(instruction.counterpartyIban) : undefined
    const credited = creditedAccountId === undefined ? undefined : funds.get(creditedAccountId)
    if (credited) credited.booked += instruction.amount
    steps.push({
      instructionId: instruction.id,
      status: 'EXECUTED',
      booking: { kind: 'EXECUTION', amount },
      ...(creditedAccountId && credited ? { credit: { accountId: creditedAccountId, amount: instruction.amount } } : {}),
    })
  }
  for (const instruction of instructions) {
    const reasonCode = returnReasonOf(instruction)
    if (status.get(instruction.id) !== 'EXECUTED' || !reasonCode) continue
    const amount = -executionAmount(instruction)
    fundsOf(instruction).booked += amount
    status.set(instruction.id, 'RETURNED')
    steps.push({ instructionId: instruction.id, status: 'RETURNED', reasonCode, booking: { kind: 'RETURN', amount } })
  }
  return steps
}

/** The days from `from` through `to` on which some open instruction can change (the others are quiet). */
export function dueDays(from: string, to: string, instructions: readonly InstructionFacts[]): string[] {
  const days = new Set<string>()
  for (const instruction of instructions) {
    if (instruction.status === 'FAILED' || instruction.status === 'RETURNED') continue
    if (instruction.status === 'EXECUTED' && !returnReasonOf(instruction)) continue
    const day = instruction.executionDate < from ? from : instruction.executionDate
    if (day <= to) days.add(day)
  }
  return [...days].sort()
}
