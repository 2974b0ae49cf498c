import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { absentBodyIsEmpty } from '../../http/absent-body.js'
import { errorResponses } from '../../http/route-schemas.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createPaymentApprovalService } from '../approvals/payment-approval.service.js'
import { bankToday } from '../lifecycle/bank-date.js'
import { createPaymentQueries } from '../lifecycle/payment-queries.js'
import { cancelPayment } from '../lifecycle/payment-cancellation.js'
import { approveDescription, cancelDescription, paymentEventsDescription, rejectDescription } from '../lifecycle/payment-descriptions.js'
import { ApproveBody, CancelBody, RejectBody } from '../lifecycle/payment.schemas.js'
import { createDirectDebitService } from './direct-debit.service.js'
import { CreateDirectDebit, DirectDebit, DirectDebitListQuery } from './direct-debit.schemas.js'

const tags = ['Direct debits']
const BASE = '/payments/v2/direct-debits'
const KIND = 'DIRECT_DEBIT'

/** `onApproved` is told when a payment becomes APPROVED, so submission to the bank can start at once. */
export function directDebitRoutes(app: ApiApp, onApproved: () => void): void {
  const service = createDirectDebitService(bankToday, onApproved)
  const queries = createPaymentQueries(app.database, KIND)
  const approvals = createPaymentApprovalService(onApproved)

  app.post(
    BASE,
    {
      config: { permission: 'direct_debits:create', idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Create a direct debit under a mandate',
        description:
          "A collection from a counterparty's external account (source) into an own account (destination), validated at " +
          'once as the bank would, a 400 naming the field at fault: the amount positive and in the destination ' +
          "account's currency; EUR only, with IBANs in SEPA countries on both sides and SEPA characters in the " +
          "reference; the date from the business date of the destination account's bank to 60 days after it. It " +
          "collects under mandateId, or by default under the source account's only mandate of the scheme that is not " +
          'CANCELLED (400 when there is none, or more than one). Approval and processing are those of a credit ' +
          'transfer. 409 external_id_taken when the externalId is already used.',
        body: CreateDirectDebit,
        response: { 201: DirectDebit, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    BASE,
    {
      config: { permission: 'direct_debits:read' },
      schema: {
        tags,
        summary: 'List direct debits, newest date first',
        description:
          'Newest requested date first. Filters: accountId (the own destination account), counterpartyId, status, ' +
          'scheme, externalId, date[gte] and date[lte] on the requested date, currency, and amount[gte] and amount[lte] in ' +
          'minor units (an inverted range, or a currency ISO 4217 does not know, is a 400). Minor units compare only within one ' +
          'currency: give currency with an amount range. approvableBy=me keeps the payments waiting for a step the caller may ' +
          'approve, paged as any other filter.',
        querystring: DirectDebitListQuery,
        response: { 200: ListEnvelope(DirectDebit), ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const { limit, token, ...query } = request.query
      return queries.list(request.actor!, { limit, token }, {
        accountId: query.accountId,
        counterpartyId: query.counterpartyId,
        status: query.status,
        scheme: query.scheme,
        externalId: query.externalId,
        dateFrom: query['date[gte]'],
        dateTo: query['date[lte]'],
        currency: query.currency,
        amountFrom: query['amount[gte]'],
        amountTo: query['amount[lte]'],
        approvableBy: query.approvableBy,
      })
    },
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'direct_debits:read' },
      schema: {
        tags,
        summary: 'Get a direct debit by id or external:{externalId}',
        description:
          'With the mandate it collects under (as it was at creation), its approval steps, its status (and ' +
          'statusReason when the bank refused or returned it), and the transactions it was reconciled to.',
        params: IdParams,
        response: { 200: DirectDebit, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => queries.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.post(
    `${BASE}/:id(^.+)::approve`,
    {
      config: { permission: 'direct_debits:approve' },
      schema: {
        tags,
        summary: 'Approve one approval step',
        description: approveDescription('direct debit', 'direct_debits:approve'),
        params: IdParams,
        body: ApproveBody,
        response: { 202: DirectDebit, ...errorResponses(400, 403, 404, 409, 422, 425) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await approvals.approve(commandContext(request, reply, 202), KIND, parseResourceRef(request.params.id), request.body.approvalStepId)),
  )

  app.post(
    `${BASE}/:id(^.+)::reject`,
    {
      config: { permission: 'direct_debits:approve' },
      preValidation: absentBodyIsEmpty,
      schema: {
        tags,
        summary: 'Reject a direct debit awaiting approval',
        description: rejectDescription('direct debit', 'direct_debits:approve'),
        params: IdParams,
        body: Type.Optional(RejectBody),
        response: { 202: DirectDebit, ...errorResponses(400, 403, 404, 409, 422, 425) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await approvals.reject(commandContext(request, reply, 202), KIND, parseResourceRef(request.params.id), request.body)),
  )

  app.post(
    `${BASE}/:id(^.+)::cancel`,
    {
      config: { permission: 'direct_debits:update' },
      preValidation: absentBodyIsEmpty,
      schema: {
        tags,
        summary: 'Cancel a direct debit the bank does not have yet',
        description: cancelDescription('direct debit', 'direct_debits:update'),
        params: IdParams,
        body: Type.Optional(CancelBody),
        response: { 202: DirectDebit, ...errorResponses(400, 403, 404, 409, 422, 425) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await cancelPayment(commandContext(request, reply, 202), KIND, parseResourceRef(request.params.id), request.body)),
  )

  app.get(
    `${BASE}/:id/events`,
    {
      config: { permission: 'direct_debits:read' },
      schema: {
        tags,
        summary: "The direct debit's events, oldest first",
        description: paymentEventsDescription('direct debit', false),
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => queries.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
