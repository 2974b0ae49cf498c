import type { CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import { preparedInsert } from '../../db/prepared-query.js'
import type { PaymentApprovalStepsTable, PaymentsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import { routingByBic } from '../../shared/account-identifiers.js'
import { toAmount } from '../../shared/money.js'
import { ownerApprovalChainId } from '../approvals/approval-rules.js'
import type { AccountHolder, AccountSnapshot, ApprovalStep, ServedAccountSnapshot, StatusReason, UserAuditInfo } from './payment.schemas.js'
import type { PaymentStatus } from './payment-status.js'

export type PaymentKind = PaymentsTable['kind']

/** A step with the user who decided it, as its `approver` shows them (paymentRepo.steps reads both). */
export type ApprovalStepRow = PaymentApprovalStepsTable & { approver: UserAuditInfo | null }

/** A step of a payment's or of a batch's (credit-transfer-batches/), with its approver: what the API shows of it. */
export type DecidedStepRow = Omit<ApprovalStepRow, 'payment_id'>

/** The decider's columns, selected beside a step joined to `users as approver`; withApprover reads them. */
export const APPROVER_COLUMNS = ['approver.kind as approver_kind', 'approver.email as approver_email', 'approver.name as approver_name'] as const

interface ApproverColumns {
  approver_user_id: string | null
  approver_kind: string | null
  approver_email: string | null
  approver_name: string | null
}

/** A step row with APPROVER_COLUMNS as its `approver`: a person by email, a program by name. */
export function withApprover<Row extends ApproverColumns>(row: Row): Omit<Row, 'approver_kind' | 'approver_email' | 'approver_name'> & { approver: UserAuditInfo | null } {
  const { approver_kind, approver_email, approver_name, ...step } = row
  return {
    ...step,
    approver:
      step.approver_user_id !== null && approver_name !== null
        ? { id: step.approver_user_id, username: approver_kind === 'HUMAN' && approver_email !== null ? approver_email : approver_name, name: approver_name }
        : null,
  }
}

export function toApprovalStep(row: DecidedStepRow, organizationId: string): ApprovalStep {
  const requiredRoleIds = JSON.parse(row.required_role_ids) as string[]
  const requiredUserIds = JSON.parse(row.required_user_ids) as string[]
  return {
    id: row.id,
    approvalChainId: row.approval_chain_id ?? ownerApprovalChainId(organizationId),
    ...(requiredRoleIds.length > 0 ? { requiredRoleIds } : {}),
    ...(requiredUserIds.length > 0 ? { requiredUserIds } : {}),
    status: row.status,
    ...(row.approver !== null ? { approver: row.approver } : {}),
    ...(row.updated !== null ? { updated: row.updated } : {}),
    autoApproved: row.auto_approved === 1,
    allowCreatorApproval: row.allow_creator_approval === 1,
  }
}

/** A snapshot as served: its bank's BIC as `routing` (reference §2.1 AccountSnapshot requires the list). */
function served(snapshot: AccountSnapshot): ServedAccountSnapshot {
  return { ...snapshot, routing: routingByBic(snapshot.bic) }
}

/** A payment row's parties and metadata, stored as JSON: parsed from the row, or handed over by the code that wrote them. */
export interface PaymentDocuments {
  source: AccountSnapshot
  sourceHolder: AccountHolder
  destination: AccountSnapshot
  destinationHolder: AccountHolder
  metadata: Record<string, string>
}

/** The row's columns of `documents`, as stored; documentsOf reads them back. */
export function documentColumns(documents: PaymentDocuments): Pick<PaymentsTable, 'source' | 'source_holder' | 'destination' | 'destination_holder' | 'metadata'> {
  return {
    source: JSON.stringify(documents.source),
    source_holder: JSON.stringify(documents.sourceHolder),
    destination: JSON.stringify(documents.destination),
    destination_holder: JSON.stringify(documents.destinationHolder),
    metadata: JSON.stringify(documents.metadata),
  }
}

function documentsOf(row: PaymentsTable): PaymentDocuments {
  return {
    source: JSON.parse(row.source) as AccountSnapshot,
    sourceHolder: JSON.parse(row.source_holder) as AccountHolder,
    destination: JSON.parse(row.destination) as AccountSnapshot,
    destinationHolder: JSON.parse(row.destination_holder) as AccountHolder,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
  }
}

/**
 * The API shape both payment kinds share; each resource adds its own fields. A payment just inserted passes the
 * `documents` it stored, not parsed back from its row's JSON (issue 14).
 */
export function toPaymentFields(row: PaymentsTable, steps: ApprovalStepRow[], documents = documentsOf(row)) {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    amount: toAmount(row.amount, row.currency),
    scheme: row.scheme,
    date: row.date,
    reference: row.reference,
    status: row.status as PaymentStatus,
    ...(row.status_reason !== null ? { statusReason: JSON.parse(row.status_reason) as StatusReason } : {}),
    source: served(documents.source),
    sourceHolder: documents.sourceHolder,
    destination: served(documents.destination),
    destinationHolder: documents.destinationHolder,
    approvalSteps: steps.map((step) => toApprovalStep(step, row.organization_id)),
    creatorUserId: row.creator_user_id,
    ...(row.connection_instruction_id !== null ? { connectionInstructionId: row.connection_instruction_id } : {}),
    attachedTransactions: JSON.parse(row.attached_transactions) as Array<{ type: 'TRANSACTION'; id: string }>,
    ...(row.batch_id !== null && row.batch_treatment !== null ? { batch: { id: row.batch_id, treatment: row.batch_treatment } } : {}),
    metadata: documents.metadata,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

export interface PaymentFilters {
  accountId?: string
  counterpartyId?: string
  status?: string
  scheme?: string
  externalId?: string
  dateFrom?: string
  dateTo?: string
  currency?: string
  amountFrom?: number
  amountTo?: number
  batchId?: string
  /** The list filter approvableBy=me: narrowed here to what may be, decided by hasApprovableStep (payment-queries.ts). */
  approver?: Approver
}

/** The caller of approvableBy=me: their user and role, as approval steps name them. */
export interface Approver {
  userId: string
  roleId: string
}

export type PaymentChanges = Partial<
  Pick<PaymentsTable, 'status' | 'status_reason' | 'date' | 'connection_instruction_id' | 'attached_transactions'>
> &
  Pick<PaymentsTable, 'updated'>

/** A collection under the mandate other than `paymentId` in one of `statuses`: served by the index payments_mandate (migration 0024). */
export function otherCollectionQuery(db: Executor, mandateId: string, paymentId: string, statuses: readonly string[]) {
  return db.selectFrom('payments').select('id').where('mandate_id', '=', mandateId).where('id', '!=', paymentId).where('status', 'in', [...statuses]).limit(1)
}

// A new payment's rows: nothing reads their answers, and a failure (a taken externalId) is reported by the transaction's
// next awaited statement — its COMMIT on PostgreSQL, one round trip fewer (answeredWithNext, issue 14).
const insertPaymentRow = preparedInsert('payments', { answeredWithNext: true })
const insertStepRow = preparedInsert('payment_approval_steps', { answeredWithNext: true })

export const paymentRepo = {
  /** The statements that store a new payment and its steps, to run with its event (runTogether, payment-creation.ts). */
  insertStatements(trx: Executor, row: PaymentsTable, steps: PaymentApprovalStepsTable[]): CompiledQuery[] {
    return [insertPaymentRow.bind(trx, row), ...steps.map((step) => insertStepRow.bind(trx, step))]
  },

  async find(db: Executor, organizationId: string, kind: PaymentKind, ref: ResourceRef): Promise<PaymentsTable | undefined> {
    const query = db.selectFrom('payments').selectAll().where('organization_id', '=', organizationId).where('kind', '=', kind)
    return ('id' in ref ? query.where('id', '=', ref.id) : query.where('external_id', '=', ref.externalId)).executeTakeFirst()
  },

  /**
   * `find`, with the row locked until the transaction ends (a write that changes nothing): a transaction
   * that holds the row commits first and this returns what it wrote; a later one waits for ours.
   */
  async lock(trx: Executor, organizationId: string, kind: PaymentKind, ref: ResourceRef): Promise<PaymentsTable | undefined> {
    const query = trx
      .updateTable('payments')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('organization_id', '=', organizationId)
      .where('kind', '=', kind)
    return ('id' in ref ? query.where('id', '=', ref.id) : query.where('external_id', '=', ref.externalId)).returningAll().executeTakeFirst()
  },

  /** The payments' approval steps in order, each with the user who decided it (a person by email, a program by name). */
  async steps(db: Executor, paymentIds: string[]): Promise<ApprovalStepRow[]> {
    if (paymentIds.length === 0) return []
    const rows = await db
      .selectFrom('payment_approval_steps as step')
      .leftJoin('users as approver', 'approver.id', 'step.approver_user_id')
      .selectAll('step')
      .select(APPROVER_COLUMNS)
      .where('step.payment_id', 'in', paymentIds)
      .orderBy('step.position')
      .execute()
    return rows.map(withApprover)
  },

  /** Newest date first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, kind: PaymentKind, filters: PaymentFilters, page: PageRequest): Promise<PaymentsTable[]> {
    let query = db.selectFrom('payments').selectAll().where('organization_id', '=', organizationId).where('kind', '=', kind)
    if (filters.accountId) query = query.where('account_id', '=', filters.accountId)
    if (filters.counterpartyId) query = query.where('counterparty_id', '=', filters.counterpartyId)
    if (filters.status) query = query.where('status', '=', filters.status)
    if (filters.scheme) query = query.where('scheme', '=', filters.scheme)
    if (filters.externalId) query = query.where('external_id', '=', filters.externalId)
    if (filters.dateFrom) query = query.where('date', '>=', filters.dateFrom)
    if (filters.dateTo) query = query.where('date', '<=', filters.dateTo)
    if (filters.currency) query = query.where('currency', '=', filters.currency)
    if (filters.amountFrom !== undefined) query = query.where('amount', '>=', filters.amountFrom)
    if (filters.amountTo !== undefined) query = query.where('amount', '<=', filters.amountTo)
    if (filters.batchId) query = query.where('batch_id', '=', filters.batchId)
    if (filters.approver) {
      const { userId, roleId } = filters.approver
      // A necessary condition only, so no rule is written twice: CREATED with a PENDING step naming the role or the user
      // (ids in the steps' JSON arrays; a UUID holds no LIKE wildcard). The creator and chain rules are applied after.
      query = query.where('status', '=', 'CREATED').where(({ exists, selectFrom }) =>
        exists(
          selectFrom('payment_approval_steps as step')
            .select('step.id')
            .whereRef('step.payment_id', '=', 'payments.id')
            .where('step.status', '=', 'PENDING')
            .where((eb) => eb.or([eb('step.required_role_ids', 'like', `%"${roleId}"%`), eb('step.required_user_ids', 'like', `%"${userId}"%`)])),
        ),
      )
    }
    if (page.after) query = query.where(keysetAfter(['date', 'id'], 'desc', page.after))
    return query.orderBy('date', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute()
  },

  /** Whether a collection under the mandate other than `paymentId` is in one of `statuses`. */
  async otherCollectionIn(db: Executor, mandateId: string, paymentId: string, statuses: readonly string[]): Promise<boolean> {
    return (await otherCollectionQuery(db, mandateId, paymentId, statuses).executeTakeFirst()) !== undefined
  },

  /** A payment of the organization to or from the external account that is in one of `statuses`, if any. */
  async firstOfExternalAccountIn(
    db: Executor,
    organizationId: string,
    externalAccountId: string,
    statuses: readonly string[],
  ): Promise<Pick<PaymentsTable, 'id' | 'kind' | 'status'> | undefined> {
    return db
      .selectFrom('payments')
      .select(['id', 'kind', 'status'])
      .where('organization_id', '=', organizationId)
      .where('external_account_id', '=', externalAccountId)
      .where('status', 'in', [...statuses])
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
  },

  /** Writes changes and bumps the version if the payment is still at `expectedVersion`; false when another writer won. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: PaymentChanges): Promise<boolean> {
    const result = await trx
      .updateTable('payments')
      .set({ ...changes, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Decides a pending step; false when it was decided meanwhile. */
  async decideStep(
    trx: Executor,
    stepId: string,
    decision: { status: 'APPROVED' | 'REJECTED'; approverUserId: string; updated: string },
  ): Promise<boolean> {
    const result = await trx
      .updateTable('payment_approval_steps')
      .set({ status: decision.status, approver_user_id: decision.approverUserId, updated: decision.updated })
      .where('id', '=', stepId)
      .where('status', '=', 'PENDING')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },
}
