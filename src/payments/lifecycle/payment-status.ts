/**
 * The payment lifecycle (reference §3) as a pure transition table, shared by credit transfers
 * and direct debits:
 *
 *   CREATED → APPROVED | REJECTED
 *   APPROVED → PENDING_SUBMISSION → SENT → ACCEPTED | PENDING_AT_BANK | FAILED
 *   PENDING_AT_BANK → ACCEPTED | FAILED;  ACCEPTED → EXECUTED | FAILED
 *   EXECUTED → RECONCILED | RETURNED;  RECONCILED → RETURNED
 *   CREATED | APPROVED | PENDING_SUBMISSION → CANCELLED (`:cancel`, before the bank has the payment)
 *
 * REJECTED, FAILED, RETURNED and CANCELLED are final; RECONCILED is final unless the bank returns the payment.
 * One move is outside the table: a person detaching a reconciliation by hand takes the payment back from
 * RECONCILED to EXECUTED (a correction, see CORRECTIONS), which no bank report can do.
 * CANCELLED is Kassa's: the reference's payment statuses have none (it names a cancelled mandate CANCELLED,
 * so a cancelled payment is named the same).
 */
export const PAYMENT_STATUSES = [
  'CREATED',
  'APPROVED',
  'REJECTED',
  'PENDING_SUBMISSION',
  'SENT',
  'PENDING_AT_BANK',
  'ACCEPTED',
  'EXECUTED',
  'RECONCILED',
  'FAILED',
  'RETURNED',
  'CANCELLED',
] as const

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

const TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  CREATED: ['APPROVED', 'REJECTED', 'CANCELLED'],
  APPROVED: ['PENDING_SUBMISSION', 'CANCELLED'],
  REJECTED: [],
  PENDING_SUBMISSION: ['SENT', 'FAILED', 'CANCELLED'],
  SENT: ['ACCEPTED', 'PENDING_AT_BANK', 'FAILED'],
  PENDING_AT_BANK: ['ACCEPTED', 'FAILED'],
  ACCEPTED: ['EXECUTED', 'FAILED'],
  EXECUTED: ['RECONCILED', 'RETURNED'],
  RECONCILED: ['RETURNED'],
  FAILED: [],
  RETURNED: [],
  CANCELLED: [],
}

/** The event name a transition into a status is recorded under (reference §2.11 names where known). */
export const EVENT_NAME_FOR_STATUS: Record<PaymentStatus, string> = {
  CREATED: 'CREATED',
  APPROVED: 'FULLY_APPROVED',
  REJECTED: 'REJECTED',
  PENDING_SUBMISSION: 'PENDING_SUBMISSION',
  SENT: 'SENT_TO_BANK',
  PENDING_AT_BANK: 'PENDING_AT_BANK',
  ACCEPTED: 'ACCEPTED_BY_BANK',
  EXECUTED: 'EXECUTED',
  RECONCILED: 'RECONCILED',
  FAILED: 'FAILED',
  RETURNED: 'RETURNED',
  CANCELLED: 'CANCELLED',
}

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to)
}

export function isFinal(status: PaymentStatus): boolean {
  return TRANSITIONS[status].length === 0
}

/**
 * Whether the payment is done with: final, or RECONCILED, which only a return by the bank changes — and a
 * return needs nothing of Kassa's but the payment itself. Until then its accounts are in use.
 */
export function isSettled(status: PaymentStatus): boolean {
  return isFinal(status) || status === 'RECONCILED'
}

export const UNSETTLED_STATUSES: readonly PaymentStatus[] = PAYMENT_STATUSES.filter((status) => !isSettled(status))

/** reference §3.1: from SENT on, the bank has the payment (a returned one too). */
export const WITH_BANK: readonly PaymentStatus[] = ['SENT', 'PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED', 'RECONCILED', 'RETURNED']

/** Whether a bank has the payment: Kassa can no longer take it back, only the bank can recall it. */
export function isWithBank(status: PaymentStatus): boolean {
  return WITH_BANK.includes(status)
}

/** Statuses in which the requested execution date may still change (before submission is scheduled). */
export function isDateEditable(status: PaymentStatus): boolean {
  return status === 'CREATED' || status === 'APPROVED'
}

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: PaymentStatus,
    readonly to: PaymentStatus,
  ) {
    super(`A payment cannot move from ${from} to ${to}`)
  }
}

/** @throws IllegalTransitionError when the table has no such move. */
export function assertTransition(from: PaymentStatus, to: PaymentStatus): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to)
}

/**
 * Moves a person makes to correct Kassa's records, kept out of TRANSITIONS so that neither canTransition nor
 * pathTo — and so no bank report — can take them (issue 12): a payment reconciled to the wrong transaction
 * is detached by hand, back from RECONCILED to EXECUTED (it was still executed).
 */
const CORRECTIONS: Partial<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  RECONCILED: ['EXECUTED'],
}

export function canCorrect(from: PaymentStatus, to: PaymentStatus): boolean {
  return CORRECTIONS[from]?.includes(to) ?? false
}

/** @throws IllegalTransitionError when no correction takes `from` to `to`. */
export function assertCorrection(from: PaymentStatus, to: PaymentStatus): void {
  if (!canCorrect(from, to)) throw new IllegalTransitionError(from, to)
}

/**
 * The shortest way through the table from one status to another, excluding `from`; [] when equal,
 * undefined when unreachable. A bank may report EXECUTED to a payment Kassa still shows as SENT:
 * the payment then passes ACCEPTED on the way, and each step is recorded.
 */
export function pathTo(from: PaymentStatus, to: PaymentStatus): PaymentStatus[] | undefined {
  if (from === to) return []
  const previous = new Map<PaymentStatus, PaymentStatus>()
  const queue: PaymentStatus[] = [from]
  while (queue.length > 0) {
    const current = queue.shift()!
    for (const next of TRANSITIONS[current]) {
      if (next === from || previous.has(next)) continue
      previous.set(next, current)
      if (next === to) {
        const path: PaymentStatus[] = [to]
        for (let step = current; step !== from; step = previous.get(step)!) path.unshift(step)
        return path
      }
      queue.push(next)
    }
  }
  return undefined
}
