import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { absentBodyIsEmpty } from '../../http/absent-body.js'
import { errorResponses } from '../../http/route-schemas.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createPaymentApprovalService } from '../approvals/payment-approval.service.js'
import { bankToday } from '../lifecycle/bank-date.js'
import { findPayment } from '../lifecycle/payment.js'
import { createPaymentQueries } from '../lifecycle/payment-queries.js'
import { cancelPayment } from '../lifecycle/payment-cancellation.js'
import { approveDescription, cancelDescription, paymentEventsDescription, rejectDescription } from '../lifecycle/payment-descriptions.js'
import { ApproveBody, CancelBody, RejectBody } from '../lifecycle/payment.schemas.js'
import { CREDIT_TRANSFER_PATCH_RULES, changeDate } from './credit-transfer.date.js'
import { createCreditTransferService } from './credit-transfer.service.js'
import { CreateCreditTransfer, CreditTransfer, CreditTransferListQuery, CreditTransferPatchBody } from './credit-transfer.schemas.js'

const tags = ['Credit transfers']
const BASE = '/payments/v2/credit-transfers'

/** `onApproved` is told when a payment becomes APPROVED, so submission to the bank can start at once. */
export function creditTransferRoutes(app: ApiApp, onApproved: () => void): void {
  const service = createCreditTransferService(bankToday, onApproved)
  const queries = createPaymentQueries(app.database, 'CREDIT_TRANSFER')
  const approvals = createPaymentApprovalService(onApproved)

  app.post(
    BASE,
    {
      config: { permission: 'credit_transfers:create', idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Create a credit transfer',
        description:
          'Validated at once as the bank would, a 400 naming the field at fault: the source an own account in the ' +
          "amount's currency, the amount positive (value in minor units, or stringValue); the destination an external " +
          'account of a live counterparty, or another own account; scheme SCT or SCT_INST, both in EUR only, with IBANs ' +
          'in SEPA countries on both sides and SEPA characters in the reference, SCT_INST up to 100,000.00 EUR; the date ' +
          "from the business date of the source account's bank to 60 days after it. The payment is CREATED with the " +
          "approval steps of every approval chain it matches, or one step for the Owner; when every step is automatic it " +
          'is APPROVED at once and goes to the bank. 409 external_id_taken when the externalId is already used.',
        body: CreateCreditTransfer,
        response: { 201: CreditTransfer, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    BASE,
    {
      config: { permission: 'credit_transfers:read' },
      schema: {
        tags,
        summary: 'List credit transfers, newest date first',
        description:
          'Newest requested date first. Filters: accountId (the own source account), counterpartyId, status, ' +
          'externalId, date[gte] and date[lte] on the requested date, currency, and amount[gte] and amount[lte] in minor ' +
          'units (an inverted range, or a currency ISO 4217 does not know, is a 400), and batchId (the credit transfer ' +
          'batch the payments were made from). Minor units compare only within one currency: give currency with an amount range. ' +
          'approvableBy=me keeps the payments waiting for a step the caller may approve, paged as any other filter.',
        querystring: CreditTransferListQuery,
        response: { 200: ListEnvelope(CreditTransfer), ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const { limit, token, ...query } = request.query
      return queries.list(request.actor!, { limit, token }, {
        accountId: query.accountId,
        counterpartyId: query.counterpartyId,
        status: query.status,
        externalId: query.externalId,
        dateFrom: query['date[gte]'],
        dateTo: query['date[lte]'],
        currency: query.currency,
        amountFrom: query['amount[gte]'],
        amountTo: query['amount[lte]'],
        batchId: query.batchId,
        approvableBy: query.approvableBy,
      })
    },
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'credit_transfers:read' },
      schema: {
        tags,
        summary: 'Get a credit transfer by id or external:{externalId}',
        description:
          'With its approval steps, its status (and statusReason when the bank refused or returned it), and the ' +
          'transactions it was reconciled to.',
        params: IdParams,
        response: { 200: CreditTransfer, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => queries.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.patch(
    `${BASE}/:id`,
    {
      config: { permission: 'credit_transfers:update' },
      schema: {
        tags,
        summary: 'Change the requested date with a JSON Patch',
        description:
          `Allowed operations: ${describeRules(CREDIT_TRANSFER_PATCH_RULES)}, while the payment is CREATED or APPROVED ` +
          "(409 afterwards). The new date is checked as at creation, against the business date of the source account's " +
          'bank; the event is DATE_CHANGED. Requires If-Match.',
        params: IdParams,
        headers: IfMatchHeaders,
        body: CreditTransferPatchBody,
        response: { 202: CreditTransfer, ...errorResponses(400, 403, 404, 409, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) => {
      const ref = parseResourceRef(request.params.id)
      const etag = requireIfMatch(request)
      const ctx = commandContext(request, reply, 202)
      const payment = await ctx.transaction(async (trx) =>
        changeDate(trx, ctx.actor, await findPayment(trx, ctx.actor.organizationId, 'CREDIT_TRANSFER', ref), etag, request.body, bankToday),
      )
      return reply.code(202).send(payment)
    },
  )

  app.post(
    `${BASE}/:id(^.+)::approve`,
    {
      config: { permission: 'credit_transfers:approve' },
      schema: {
        tags,
        summary: 'Approve one approval step',
        description: approveDescription('credit transfer', 'credit_transfers:approve'),
        params: IdParams,
        body: ApproveBody,
        response: { 202: CreditTransfer, ...errorResponses(400, 403, 404, 409, 422, 425) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await approvals.approve(commandContext(request, reply, 202), 'CREDIT_TRANSFER', parseResourceRef(request.params.id), request.body.approvalStepId)),
  )

  app.post(
    `${BASE}/:id(^.+)::reject`,
    {
      config: { permission: 'credit_transfers:approve' },
      preValidation: absentBodyIsEmpty,
      schema: {
        tags,
        summary: 'Reject a credit transfer awaiting approval',
        description: rejectDescription('credit transfer', 'credit_transfers:approve'),
        params: IdParams,
        body: Type.Optional(RejectBody),
        response: { 202: CreditTransfer, ...errorResponses(400, 403, 404, 409, 422, 425) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await approvals.reject(commandContext(request, reply, 202), 'CREDIT_TRANSFER', parseResourceRef(request.params.id), request.body)),
  )

  app.post(
    `${BASE}/:id(^.+)::cancel`,
    {
      config: { permission: 'credit_transfers:update' },
      preValidation: absentBodyIsEmpty,
      schema: {
        tags,
        summary: 'Cancel a credit transfer the bank does not have yet',
        description: cancelDescription('credit transfer', 'credit_transfers:update'),
        params: IdParams,
        body: Type.Optional(CancelBody),
        response: { 202: CreditTransfer, ...errorResponses(400, 403, 404, 409, 422, 425) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await cancelPayment(commandContext(request, reply, 202), 'CREDIT_TRANSFER', parseResourceRef(request.params.id), request.body)),
  )

  app.get(
    `${BASE}/:id/events`,
    {
      config: { permission: 'credit_transfers:read' },
      schema: {
        tags,
        summary: "The credit transfer's events, oldest first",
        description: paymentEventsDescription('credit transfer', true),
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => queries.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
