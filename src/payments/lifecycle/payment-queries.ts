import type { Database } from '../../db/database.js'
import { eventPage, type Event } from '../../events/index.js'
import { invalidField } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { groupBy } from '../../shared/group-by.js'
import { isCurrency } from '../../shared/money.js'
import { findPayment, PAYMENT_ENTITY_TYPE, serializePayment, toPayment, type Payment } from './payment.js'
import { paymentRepo, type PaymentFilters, type PaymentKind } from './payment.repo.js'

/** Reads shared by credit transfers and direct debits: get, list (newest date first), events. */
export function createPaymentQueries(database: Database, kind: PaymentKind) {
  const entityType = PAYMENT_ENTITY_TYPE[kind]
  return {
    /** @throws ApiError not_found (404). */
    async get(actor: Actor, ref: ResourceRef): Promise<Payment> {
      return serializePayment(database.db, await findPayment(database.db, actor.organizationId, kind, ref))
    },

    /** @throws ApiError invalid_request (400: inverted ranges, a currency ISO 4217 does not know), invalid_token (400). */
    async list(actor: Actor, query: { limit?: number; token?: string }, filters: PaymentFilters): Promise<ListEnvelopeOf<Payment>> {
      // The schema checks the code's shape; a well-formed code of no currency (a typo: EUE) is refused, not answered with nothing.
      if (filters.currency && !isCurrency(filters.currency)) throw invalidField('currency', `${filters.currency} is not an ISO 4217 currency`)
      if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) {
        throw invalidField('date[gte]', 'must not be after date[lte]')
      }
      if (filters.amountFrom !== undefined && filters.amountTo !== undefined && filters.amountFrom > filters.amountTo) {
        throw invalidField('amount[gte]', 'must not be above amount[lte]')
      }
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
