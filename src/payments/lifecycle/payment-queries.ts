import type { Database } from '../../db/database.js'
import { eventPage, type Event } from '../../events/index.js'
import { invalidField } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { groupBy } from '../../shared/group-by.js'
import { isCurrency } from '../../shared/money.js'
import { findPayment, PAYMENT_ENTITY_TYPE, serializePayment, toPayment, type Payment } from './payment.js'
import { paymentRepo, type ApprovalStepRow, type PaymentFilters, type PaymentKind } from './payment.repo.js'
import type { PaymentsTable } from '../../db/schema.js'
import { hasApprovableStep } from '../approvals/approval-rules.js'
import { stepState } from '../approvals/payment-approval.service.js'

/** The permission of :approve, by kind (the routes' guard): without it no payment of the kind is approvable. */
const APPROVE_PERMISSION = { CREDIT_TRANSFER: 'credit_transfers:approve', DIRECT_DEBIT: 'direct_debits:approve' } as const

/** Reads shared by credit transfers and direct debits: get, list (newest date first), events. */
export function createPaymentQueries(database: Database, kind: PaymentKind) {
  const entityType = PAYMENT_ENTITY_TYPE[kind]

  /**
   * approvableBy=me (issue 11: the dashboard's Approvals): the CREATED payments with a PENDING step the actor may approve
   * by checkApprover's rules — its role or user named, the creator only where the step allows, no second step of a chain.
   * Exact, in two stages so the rules stay in one place: SQL reads candidates (a step naming the role or the user), and
   * hasApprovableStep keeps those the actor may approve, reading further candidates until the page (and the one row
   * that says another page exists) is full. The token is the sort key of the last payment served, as for any list.
   * Without the approve permission nothing is approvable. The organization's TOTP setting is not applied: it is about
   * how the caller signed in, not whom a step names (the approval itself still requires it).
   */
  async function approvableList(actor: Actor, query: { limit?: number; token?: string }, filters: PaymentFilters): Promise<ListEnvelopeOf<Payment>> {
    const approver = { userId: actor.userId, roleId: actor.roleId }
    const page = pageRequest(query, entityType, { ...filters, approver }, ['text', 'text'])
    if (!actor.permissions.has(APPROVE_PERMISSION[kind])) return pageOf([], page, () => [], (row: Payment) => row)
    const kept: Array<{ row: PaymentsTable; steps: ApprovalStepRow[] }> = []
    let after = page.after
    while (kept.length <= page.limit) {
      const candidates = await paymentRepo.list(database.db, actor.organizationId, kind, { ...filters, approver }, { ...page, after })
      const steps = groupBy(await paymentRepo.steps(database.db, candidates.map((row) => row.id)), (step) => step.payment_id)
      for (const row of candidates) {
        const rowSteps = steps.get(row.id) ?? []
        if (hasApprovableStep(rowSteps.map(stepState), actor, row.creator_user_id)) kept.push({ row, steps: rowSteps })
      }
      const last = candidates.at(-1)
      if (candidates.length <= page.limit || !last) break
      after = [last.date, last.id]
    }
    return pageOf(kept.slice(0, page.limit + 1), page, ({ row }) => [row.date, row.id], ({ row, steps }) => toPayment(row, steps))
  }

  return {
    /** @throws ApiError not_found (404). */
    async get(actor: Actor, ref: ResourceRef): Promise<Payment> {
      return serializePayment(database.db, await findPayment(database.db, actor.organizationId, kind, ref))
    },

    /**
     * `approvableBy: 'me'` keeps the payments with a step the actor may approve (approvableList).
     * @throws ApiError invalid_request (400: inverted ranges, a currency ISO 4217 does not know), invalid_token (400).
     */
    async list(
      actor: Actor,
      query: { limit?: number; token?: string },
      { approvableBy, ...filters }: Omit<PaymentFilters, 'approver'> & { approvableBy?: 'me' },
    ): Promise<ListEnvelopeOf<Payment>> {
      // The schema checks the code's shape; a well-formed code of no currency (a typo: EUE) is refused, not answered with nothing.
      if (filters.currency && !isCurrency(filters.currency)) throw invalidField('currency', `${filters.currency} is not an ISO 4217 currency`)
      if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) {
        throw invalidField('date[gte]', 'must not be after date[lte]')
      }
      if (filters.amountFrom !== undefined && filters.amountTo !== undefined && filters.amountFrom > filters.amountTo) {
        throw invalidField('amount[gte]', 'must not be above amount[lte]')
      }
      if (approvableBy === 'me') return approvableList(actor, query, filters)
      const page = pageRequest(query, entityType, { ...filters }, ['text', 'text'])
      const rows = await paymentRepo.list(database.db, actor.organizationId, kind, filters, page)
      const steps = groupBy(await paymentRepo.steps(database.db, rows.slice(0, page.limit).map((row) => row.id)), (step) => step.payment_id)
      return pageOf(rows, page, (row) => [row.date, row.id], (row) =>
        toPayment(row, steps.get(row.id) ?? []),
      )
    },

    /** The payment's history, oldest first. @throws ApiError not_found (404), invalid_token (400). */
    async events(actor: Actor, ref: ResourceRef, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<Event>> {
      const row = await findPayment(database.db, actor.organizationId, kind, ref)
      return eventPage(database.db, actor.organizationId, entityType, row.id, query)
    },
  }
}
