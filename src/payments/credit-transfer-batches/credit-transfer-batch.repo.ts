import type { Executor } from '../../db/database.js'
import type { CreditTransferBatchApprovalStepsTable, CreditTransferBatchesTable, CreditTransferBatchResultsTable, PaymentsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import { APPROVER_COLUMNS, withApprover, type DecidedStepRow } from '../lifecycle/payment.repo.js'

export type BatchStepRow = DecidedStepRow & { batch_id: string }

/** Result rows per INSERT: well inside both databases' limits on bound parameters. */
const RESULT_CHUNK = 500

export const creditTransferBatchRepo = {
  /** The batch and its steps; its payments follow (they name it), then its results (they name them). */
  async insert(trx: Executor, row: CreditTransferBatchesTable, steps: CreditTransferBatchApprovalStepsTable[]): Promise<void> {
    await trx.insertInto('credit_transfer_batches').values(row).execute()
    if (steps.length > 0) await trx.insertInto('credit_transfer_batch_approval_steps').values(steps).execute()
  },

  async insertResults(trx: Executor, results: CreditTransferBatchResultsTable[]): Promise<void> {
    for (let start = 0; start < results.length; start += RESULT_CHUNK) {
      await trx.insertInto('credit_transfer_batch_results').values(results.slice(start, start + RESULT_CHUNK)).execute()
    }
  },

  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<CreditTransferBatchesTable | undefined> {
    const query = db.selectFrom('credit_transfer_batches').selectAll().where('organization_id', '=', organizationId)
    return ('id' in ref ? query.where('id', '=', ref.id) : query.where('external_id', '=', ref.externalId)).executeTakeFirst()
  },

  /** Whether the organization has a batch with this externalId. */
  async externalIdTaken(db: Executor, organizationId: string, externalId: string): Promise<boolean> {
    return (await this.find(db, organizationId, { externalId })) !== undefined
  },

  /** Newest first (ids are UUIDv7: creation order); fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, page: PageRequest): Promise<CreditTransferBatchesTable[]> {
    let query = db.selectFrom('credit_transfer_batches').selectAll().where('organization_id', '=', organizationId)
    if (page.after) query = query.where(keysetAfter(['id'], 'desc', page.after))
    return query.orderBy('id', 'desc').limit(page.limit + 1).execute()
  },

  /** The batches' approval steps in order, each with the user who decided it. */
  async steps(db: Executor, batchIds: string[]): Promise<BatchStepRow[]> {
    if (batchIds.length === 0) return []
    const rows = await db
      .selectFrom('credit_transfer_batch_approval_steps as step')
      .leftJoin('users as approver', 'approver.id', 'step.approver_user_id')
      .selectAll('step')
      .select(APPROVER_COLUMNS)
      .where('step.batch_id', 'in', batchIds)
      .orderBy('step.position')
      .execute()
    return rows.map(withApprover)
  },

  /** A batch's results from `page.after` on, in record order, filtered; fetches `limit + 1` rows for the pager. */
  async results(db: Executor, batchId: string, filters: { errors?: boolean; skipped?: boolean }, page: PageRequest): Promise<CreditTransferBatchResultsTable[]> {
    let query = db.selectFrom('credit_transfer_batch_results').selectAll().where('batch_id', '=', batchId)
    if (filters.errors !== undefined) query = query.where('errors', filters.errors ? '!=' : '=', '[]')
    if (filters.skipped !== undefined) query = query.where('skipped', '=', filters.skipped ? 1 : 0)
    if (page.after) query = query.where(keysetAfter(['record_index'], 'asc', page.after))
    return query.orderBy('record_index').limit(page.limit + 1).execute()
  },

  /** The batch's payments still awaiting its approval, locked until the transaction ends. */
  async lockAwaitingPayments(trx: Executor, batchId: string): Promise<PaymentsTable[]> {
    return trx
      .updateTable('payments')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('batch_id', '=', batchId)
      .where('status', '=', 'CREATED')
      .returningAll()
      .execute()
  },

  /** Writes changes and bumps the version if the batch is still at `expectedVersion`; false when another writer won. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: Pick<CreditTransferBatchesTable, 'updated'>): Promise<boolean> {
    const result = await trx
      .updateTable('credit_transfer_batches')
      .set({ ...changes, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Decides a pending step; false when it was decided meanwhile. */
  async decideStep(trx: Executor, stepId: string, decision: { status: 'APPROVED' | 'REJECTED'; approverUserId: string; updated: string }): Promise<boolean> {
    const result = await trx
      .updateTable('credit_transfer_batch_approval_steps')
      .set({ status: decision.status, approver_user_id: decision.approverUserId, updated: decision.updated })
      .where('id', '=', stepId)
      .where('status', '=', 'PENDING')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },
}
