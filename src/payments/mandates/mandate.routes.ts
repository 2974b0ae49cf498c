import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { errorResponses } from '../../http/route-schemas.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createMandateService } from './mandate.service.js'
import { CreateMandate, Mandate, MandateListQuery } from './mandate.schemas.js'

const tags = ['Mandates']
const BASE = '/payments/v2/mandates'

export function mandateRoutes(app: ApiApp): void {
  const service = createMandateService(app.database)

  app.post(
    BASE,
    {
      config: { permission: 'mandates:create' },
      schema: {
        tags,
        summary: 'Register a direct debit mandate for an external account',
        description:
          "The debtor's authorization to collect from externalAccountId, an external account with an IBAN (400 " +
          'otherwise), under SDD_CORE or SDD_B2B: creditorReference (the creditor identifier) and mandateReference (the ' +
          'unique mandate reference), up to 35 SEPA characters each, and a signatureDate not in the future. The mandate ' +
          'is CREATED, and becomes ACTIVE (event ACTIVATED) when its first collection is executed; active: true ' +
          'registers one the bank already knows as ACTIVE. 409 conflict when the externalId, or the pair of creditor ' +
          'and mandate reference, is already used by a mandate of the organization.',
        body: CreateMandate,
        response: { 201: Mandate, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    BASE,
    {
      config: { permission: 'mandates:read' },
      schema: {
        tags,
        summary: 'List mandates, newest first',
        description: 'Filters: externalAccountId, counterpartyId, status (CREATED, ACTIVE, CANCELLED), scheme.',
        querystring: MandateListQuery,
        response: { 200: ListEnvelope(Mandate), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'mandates:read' },
      schema: {
        tags,
        summary: 'Get a mandate by id or external:{externalId}',
        description: 'Its status says whether direct debits may still be collected under it: not once it is CANCELLED.',
        params: IdParams,
        response: { 200: Mandate, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.post(
    `${BASE}/:id(^.+)::cancel`,
    {
      config: { permission: 'mandates:update' },
      schema: {
        tags,
        summary: 'Cancel a mandate: no further collections',
        description:
          'The mandate becomes CANCELLED (event CANCELLED), which is final: new direct debits cannot collect under it, ' +
          'and those not yet sent to the bank FAIL with MD01 (no valid mandate) instead of being sent. No body. 409 ' +
          'when it is already cancelled.',
        params: IdParams,
        response: { 202: Mandate, ...errorResponses(400, 403, 404, 409, 422, 425) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.cancel(commandContext(request, reply, 202), parseResourceRef(request.params.id))),
  )

  app.get(
    `${BASE}/:id/events`,
    {
      config: { permission: 'mandates:read' },
      schema: {
        tags,
        summary: "The mandate's events, oldest first",
        description:
          "The mandate's history: CREATED, ACTIVATED (by the bank, with the first executed collection), CANCELLED; each " +
          'event with the version of the mandate after it.',
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
