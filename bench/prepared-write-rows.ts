/**
 * The rows of one keyed credit-transfer create, as Kassa writes them (a scratch Kassa's SQL, logged once at 6bba57a:
 * src/payments/lifecycle/payment-creation.ts insertPayment, src/events recordEvent, src/idempotency
 * TransactionalKey.complete) — for the prepared-statement floor of bench/payments.ts. Each table's
 * columns in the order both backends' statements bind them.
 */
import { createHash } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'

export const PAYMENT_COLUMNS = [
  'id', 'organization_id', 'kind', 'external_id', 'status', 'status_reason', 'amount', 'currency', 'scheme', 'date', 'reference',
  'account_id', 'external_account_id', 'counterparty_id', 'mandate_id', 'mandate', 'source', 'source_holder', 'destination',
  'destination_holder', 'creator_user_id', 'connection_instruction_id', 'attached_transactions', 'metadata', 'batch_id',
  'batch_treatment', 'version', 'created', 'updated',
] as const
export const STEP_COLUMNS = [
  'id', 'approval_chain_id', 'position', 'required_role_ids', 'required_user_ids', 'allow_creator_approval', 'auto_approved',
  'status', 'approver_user_id', 'updated', 'payment_id',
] as const
export const EVENT_COLUMNS = [
  'organization_id', 'entity_type', 'entity_id', 'sequence', 'type', 'name', 'timestamp', 'originator', 'message', 'entity_version', 'entity',
] as const
export const KEY_COLUMNS = [
  'organization_id', 'method', 'path', 'key', 'fingerprint', 'state', 'lock_token', 'locked_until', 'response_status',
  'response_body', 'created', 'expires_at',
] as const

export const CREATE_PATH = '/payments/v2/credit-transfers'
/** spec: Idempotency rules 3 — a key expires 24 hours after its first use. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000

/** The parts of a credit transfer Kassa created that the floor answers with and writes again. */
export interface CreditTransferTemplate {
  organizationId: string
  creatorUserId: string
  source: { id: string }
  sourceHolder: unknown
  destination: { id: string }
  destinationHolder: { id: string }
  approvalSteps: Array<{ approvalChainId: string }>
  [field: string]: unknown
}

/** The fields of a create body the floor uses; it validates nothing else. */
export interface CreateBody {
  amount: { currency: string; value: number }
  scheme: string
  date: string
  reference: string
  source: { id: string }
  destination: { id: string }
  metadata?: Record<string, string>
}

export interface CreateRequest {
  key: string
  fingerprint: string
  body: CreateBody
}

export interface Answer {
  status: number
  body: string
}

/** The statement parameters of one create, and the answer stored with them. */
export interface CreateRows {
  paymentId: string
  payment: unknown[]
  step: unknown[]
  event: unknown[]
  key: unknown[]
  answer: Answer
}

export function requestOf(key: string, body: CreateBody): CreateRequest {
  return { key, fingerprint: createHash('sha256').update(JSON.stringify(body)).digest('hex'), body }
}

/** The key's primary-key values, in KEY_COLUMNS order. */
export function keyScope(template: CreditTransferTemplate, key: string): unknown[] {
  return [template.organizationId, 'POST', CREATE_PATH, key]
}

/**
 * The rows and the 201 of a create, `ownerRoleId` read in the request's own transaction. The snapshots of
 * source and destination are the template's (one pair of accounts throughout the benchmark); the resource is
 * serialized once, stored in the event and the key, and sent.
 */
export function rowsOf(template: CreditTransferTemplate, request: CreateRequest, ownerRoleId: string): CreateRows {
  const { body } = request
  const now = new Date()
  const created = now.toISOString()
  const paymentId = uuidv7()
  const stepId = uuidv7()
  const metadata = body.metadata ?? {}
  const step = { ...template.approvalSteps[0], id: stepId, requiredRoleIds: [ownerRoleId] }
  const resource = {
    ...template,
    id: paymentId,
    amount: { currency: body.amount.currency, value: body.amount.value, stringValue: (body.amount.value / 100).toFixed(2) },
    scheme: body.scheme,
    date: body.date,
    reference: body.reference,
    approvalSteps: [step],
    metadata,
    created,
    updated: created,
  }
  const json = JSON.stringify(resource)
  const organizationId = template.organizationId
  return {
    paymentId,
    payment: [
      paymentId, organizationId, 'CREDIT_TRANSFER', null, 'CREATED', null, body.amount.value, body.amount.currency, body.scheme,
      body.date, body.reference, body.source.id, body.destination.id, template.destinationHolder.id, null, null,
      JSON.stringify(template.source), JSON.stringify(template.sourceHolder), JSON.stringify(template.destination),
      JSON.stringify(template.destinationHolder), template.creatorUserId, null, '[]', JSON.stringify(metadata), null, null, 1,
      created, created,
    ],
    step: [stepId, null, 0, JSON.stringify([ownerRoleId]), '[]', 1, 0, 'PENDING', null, null, paymentId],
    // A new payment's first event: sequence 1, not read (as Kassa's insertPayment).
    event: [organizationId, 'credit_transfers', paymentId, 1, 'CREATED', 'CREATED', created, template.creatorUserId, null, 1, json],
    key: [
      ...keyScope(template, request.key), request.fingerprint, 'COMPLETED', '', created, 201, json, created,
      new Date(now.getTime() + KEY_LIFETIME_MS).toISOString(),
    ],
    answer: { status: 201, body: json },
  }
}

/** What a key's stored row means for a request (spec: Idempotency rules): its replay, or a 422 for another body. */
export function replayOf(row: { fingerprint: string; response_status: number | null; response_body: string | null }, fingerprint: string): Answer {
  if (row.fingerprint !== fingerprint) return { status: 422, body: '{"code":"idempotency_key_reused"}' }
  return { status: row.response_status ?? 200, body: row.response_body ?? '' }
}
