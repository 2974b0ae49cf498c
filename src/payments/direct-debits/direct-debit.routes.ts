import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { errorResponses } from '../../http/route-schemas.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createPaymentApprovalService } from '../approvals/payment-approval.service.js'
import { createPaymentQueries } from '../lifecycle/payment-queries.js'
import { ApproveBody, RejectBody } from '../lifecycle/payment.schemas.js'
import { createDirectDebitService } from './direct-debit.service.js'
import { CreateDirectDebit, DirectDebit, DirectDebitListQuery } from './direct-debit.schemas.js'

const tags = ['Direct debits']
const BASE = '/payments/v2/direct-debits'
const KIND = 'DIRECT_DEBIT'

/** `onApproved` is told when a payment becomes APPROVED, so submission to the bank can start at once. */
export function directDebitRoutes(app: ApiApp, onApproved: () => void): void {
  const service = createDirectDebitService(onApproved)
  const queries = createPaymentQueries(app.database, KIND)
  const approvals = createPaymentApprovalService(onApproved)

  app.post(
    BASE,
    {
      config: { permission: 'direct_debits:create' },
      schema: { tags, summary: 'Create a direct debit under a mandate', body: CreateDirectDebit, response: { 201: DirectDebit, ...errorResponses(400, 403, 409, 413, 415, 422, 425) } },
    },
    async (request, reply) => reply.code(201).send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    BASE,
    {
      config: { permission: 'direct_debits:read' },
      schema: { tags, summary: 'List direct debits, newest date first', querystring: DirectDebitListQuery, response: { 200: ListEnvelope(DirectDebit), ...errorResponses(400, 403) } },
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
      })
    },
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'direct_debits:read' },
      schema: { tags, summary: 'Get a direct debit by id or external:{externalId}', params: IdParams, response: { 200: DirectDebit, ...errorResponses(400, 403, 404) } },
    },
    async (request) => queries.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.post(
    `${BASE}/:id(^.+)::approve`,
    {
      config: { permission: 'direct_debits:approve' },
      schema: { tags, summary: 'Approve one approval step', params: IdParams, body: ApproveBody, response: { 202: DirectDebit, ...errorResponses(400, 403, 404, 409, 422, 425) } },
    },
    async (request, reply) =>
      reply.code(202).send(await approvals.approve(commandContext(request, reply, 202), KIND, parseResourceRef(request.params.id), request.body.approvalStepId)),
  )

  app.post(
    `${BASE}/:id(^.+)::reject`,
    {
      config: { permission: 'direct_debits:approve' },
      schema: { tags, summary: 'Reject a direct debit awaiting approval', params: IdParams, body: Type.Optional(RejectBody), response: { 202: DirectDebit, ...errorResponses(400, 403, 404, 409, 422, 425) } },
    },
    async (request, reply) =>
      reply.code(202).send(await approvals.reject(commandContext(request, reply, 202), KIND, parseResourceRef(request.params.id), request.body?.reason)),
  )

  app.get(
    `${BASE}/:id/events`,
    {
      config: { permission: 'direct_debits:read' },
      schema: { tags, summary: "The direct debit's events, oldest first", params: IdParams, querystring: Type.Object(ListQueryProperties), response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) } },
    },
    async (request) => queries.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
