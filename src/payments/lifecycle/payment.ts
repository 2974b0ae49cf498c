import type { Executor } from '../../db/database.js'
import type { PaymentsTable } from '../../db/schema.js'
import { recordEvent } from '../../events/index.js'
import { ApiError } from '../../http/errors.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import { nowIso } from '../../shared/clock.js'
import { requireLive } from '../../shared/lookup.js'
import { paymentRepo, toPaymentFields, type ApprovalStepRow, type PaymentChanges, type PaymentDocuments, type PaymentKind } from './payment.repo.js'
import type { MandateSnapshot, StatusReason } from './payment.schemas.js'
import { EVENT_NAME_FOR_STATUS, IllegalTransitionError, assertCorrection, assertTransition, type PaymentStatus } from './payment-status.js'

/** Webhook/event resource names of the two payment kinds. */
export const PAYMENT_ENTITY_TYPE: Record<PaymentKind, string> = {
  CREDIT_TRANSFER: 'credit_transfers',
  DIRECT_DEBIT: 'direct_debits',
}

const RESOURCE_NAME: Record<PaymentKind, string> = { CREDIT_TRANSFER: 'credit transfer', DIRECT_DEBIT: 'direct debit' }

export type Payment = ReturnType<typeof toPaymentFields> & { mandate?: MandateSnapshot }

export function toPayment(row: PaymentsTable, steps: ApprovalStepRow[], documents?: PaymentDocuments): Payment {
  const fields = toPaymentFields(row, steps, documents)
  if (row.mandate === null) return fields
  // Snapshots stored before finalCollection was served lack it; Kassa never makes a final collection.
  const mandate = JSON.parse(row.mandate) as Omit<MandateSnapshot, 'finalCollection'> & { finalCollection?: boolean }
  return { ...fields, mandate: { ...mandate, finalCollection: mandate.finalCollection ?? false } }
}

export async function serializePayment(db: Executor, row: PaymentsTable): Promise<Payment> {
  return toPayment(row, await paymentRepo.steps(db, [row.id]))
}

/** @throws ApiError not_found (404) — also for another organization's payment. */
export async function findPayment(db: Executor, organizationId: string, kind: PaymentKind, ref: ResourceRef): Promise<PaymentsTable> {
  return requireLive(await paymentRepo.find(db, organizationId, kind, ref), RESOURCE_NAME[kind], ref)
}

/**
 * `findPayment` with the payment's row locked until the transaction ends, for a move that must not race
 * another: a submission and a cancel of one payment run one after the other, the second seeing the first.
 * @throws ApiError not_found (404) — also for another organization's payment.
 */
export async function lockPayment(trx: Executor, organizationId: string, kind: PaymentKind, ref: ResourceRef): Promise<PaymentsTable> {
  return requireLive(await paymentRepo.lock(trx, organizationId, kind, ref), RESOURCE_NAME[kind], ref)
}

export interface TransitionOptions {
  originator: string
  message?: string
  statusReason?: StatusReason
  changes?: Omit<PaymentChanges, 'status' | 'status_reason' | 'updated'>
  /**
   * A person's correction outside the lifecycle table (payment-status.ts CORRECTIONS: RECONCILED → EXECUTED when a
   * reconciliation is detached by hand). Never set for a bank's report: those follow the table only.
   */
  correction?: boolean
}

/** A payment after a transition: its row (for the next move) and the resource its event carries. */
export interface Transitioned {
  row: PaymentsTable
  payment: Payment
}

/**
 * Moves a payment along the lifecycle table (or, with `options.correction`, by a correction) and records the
 * event, in the caller's transaction.
 * `steps` are the payment's approval steps when the caller has them and they did not change.
 * @throws ApiError conflict (409) for a move the table forbids or when another writer changed the payment first.
 */
export async function movePayment(
  trx: Executor,
  current: PaymentsTable,
  to: PaymentStatus,
  options: TransitionOptions,
  steps?: ApprovalStepRow[],
): Promise<Transitioned> {
  try {
    if (options.correction) assertCorrection(current.status as PaymentStatus, to)
    else assertTransition(current.status as PaymentStatus, to)
  } catch (error) {
    if (error instanceof IllegalTransitionError) throw new ApiError('conflict', error.message)
    throw error
  }
  const changes = {
    ...options.changes,
    status: to,
    ...(options.statusReason ? { status_reason: JSON.stringify(options.statusReason) } : {}),
    updated: nowIso(),
  }
  if (!(await paymentRepo.update(trx, current.id, current.version, changes))) {
    throw new ApiError('conflict', 'The payment changed while this request ran; fetch it again')
  }
  // Exactly what the conditional update wrote: no need to read it back.
  const row: PaymentsTable = { ...current, ...changes, version: current.version + 1 }
  const payment = toPayment(row, steps ?? (await paymentRepo.steps(trx, [row.id])))
  await recordEvent(trx, {
    organizationId: current.organization_id,
    entityType: PAYMENT_ENTITY_TYPE[current.kind],
    entityId: current.id,
    type: 'UPDATED',
    name: EVENT_NAME_FOR_STATUS[to],
    originator: options.originator,
    ...(options.message ?? options.statusReason?.message ? { message: options.message ?? options.statusReason?.message } : {}),
    entity: payment,
  })
  return { row, payment }
}

/** `movePayment`, for callers that only need the resource. */
export async function transitionPayment(trx: Executor, current: PaymentsTable, to: PaymentStatus, options: TransitionOptions): Promise<Payment> {
  return (await movePayment(trx, current, to, options)).payment
}
