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
      schema: { tags, summary: 'Register a direct debit mandate for an external account', body: CreateMandate, response: { 201: Mandate, ...errorResponses(400, 403, 409, 413, 415, 422, 425) } },
    },
    async (request, reply) => reply.code(201).send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    BASE,
    {
      config: { permission: 'mandates:read' },
      schema: { tags, summary: 'List mandates, newest first', querystring: MandateListQuery, response: { 200: ListEnvelope(Mandate), ...errorResponses(400, 403) } },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'mandates:read' },
      schema: { tags, summary: 'Get a mandate by id or external:{externalId}', params: IdParams, response: { 200: Mandate, ...errorResponses(400, 403, 404) } },
    },
    async (request) => service.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.post(
    `${BASE}/:id(^.+)::cancel`,
    {
      config: { permission: 'mandates:update' },
      schema: { tags, summary: 'Cancel a mandate: no further collections', params: IdParams, response: { 202: Mandate, ...errorResponses(400, 403, 404, 409, 422, 425) } },
    },
    async (request, reply) => reply.code(202).send(await service.cancel(commandContext(request, reply, 202), parseResourceRef(request.params.id))),
  )

  app.get(
    `${BASE}/:id/events`,
    {
      config: { permission: 'mandates:read' },
      schema: { tags, summary: "The mandate's events, oldest first", params: IdParams, querystring: Type.Object(ListQueryProperties), response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) } },
    },
    async (request) => service.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
