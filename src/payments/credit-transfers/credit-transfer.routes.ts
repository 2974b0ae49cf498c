import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { JsonPatchBody, describeRules } from '../../http/json-patch.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { errorResponses } from '../../http/route-schemas.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createPaymentApprovalService } from '../approvals/payment-approval.service.js'
import { findPayment } from '../lifecycle/payment.js'
import { createPaymentQueries } from '../lifecycle/payment-queries.js'
import { ApproveBody, RejectBody } from '../lifecycle/payment.schemas.js'
import { CREDIT_TRANSFER_PATCH_RULES, changeDate } from './credit-transfer.date.js'
import { createCreditTransferService } from './credit-transfer.service.js'
import { CreateCreditTransfer, CreditTransfer, CreditTransferListQuery } from './credit-transfer.schemas.js'

const tags = ['Credit transfers']
const BASE = '/payments/v2/credit-transfers'

/** `onApproved` is told when a payment becomes APPROVED, so submission to the bank can start at once. */
export function creditTransferRoutes(app: ApiApp, onApproved: () => void): void {
  const service = createCreditTransferService(onApproved)
  const queries = createPaymentQueries(app.database, 'CREDIT_TRANSFER')
  const approvals = createPaymentApprovalService(onApproved)

  app.post(
    BASE,
    {
      config: { permission: 'credit_transfers:create' },
      schema: {
        tags,
        summary: 'Create a credit transfer',
        description: 'Validated at once as the bank would; gets the approval steps of every matching approval chain, or the Owner’s.',
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
      })
    },
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'credit_transfers:read' },
      schema: { tags, summary: 'Get a credit transfer by id or external:{externalId}', params: IdParams, response: { 200: CreditTransfer, ...errorResponses(400, 403, 404) } },
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
        description: `Allowed operations: ${describeRules(CREDIT_TRANSFER_PATCH_RULES)}, while the payment is CREATED or APPROVED. Requires If-Match.`,
        params: IdParams,
        headers: IfMatchHeaders,
        body: JsonPatchBody,
        response: { 202: CreditTransfer, ...errorResponses(400, 403, 404, 409, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) => {
      const ref = parseResourceRef(request.params.id)
      const etag = requireIfMatch(request)
      const ctx = commandContext(request, reply, 202)
      const payment = await ctx.transaction(async (trx) =>
        changeDate(trx, ctx.actor, await findPayment(trx, ctx.actor.organizationId, 'CREDIT_TRANSFER', ref), etag, request.body),
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
      schema: {
        tags,
        summary: 'Reject a credit transfer awaiting approval',
        params: IdParams,
        body: Type.Optional(RejectBody),
        response: { 202: CreditTransfer, ...errorResponses(400, 403, 404, 409, 422, 425) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await approvals.reject(commandContext(request, reply, 202), 'CREDIT_TRANSFER', parseResourceRef(request.params.id), request.body?.reason)),
  )

  app.get(
    `${BASE}/:id/events`,
    {
      config: { permission: 'credit_transfers:read' },
      schema: {
        tags,
        summary: "The credit transfer's events, oldest first",
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => queries.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
