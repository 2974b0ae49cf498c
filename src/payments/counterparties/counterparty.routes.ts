import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { JsonPatchBody, describeRules } from '../../http/json-patch.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { serializedOncePerResult } from '../../http/serialize-once.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createCounterpartyService } from './counterparty.service.js'
import { COUNTERPARTY_PATCH_RULES, Counterparty, CounterpartyListQuery, CreateCounterparty } from './counterparty.schemas.js'

const tags = ['Counterparties']

export function counterpartyRoutes(app: ApiApp): void {
  const service = createCounterpartyService(app.database)
  // GET results may come from the service's read cache: each cached object is serialized once.
  const serveCounterparty = serializedOncePerResult()
  const servePage = serializedOncePerResult()

  app.post(
    '/payments/v2/counterparties',
    {
      config: { permission: 'counterparties:create' },
      schema: {
        tags,
        summary: 'Create a counterparty with its external accounts',
        body: CreateCounterparty,
        response: { 201: Counterparty, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const counterparty = await service.create(commandContext(request, reply, 201), request.body)
      return reply.code(201).send(counterparty)
    },
  )

  app.get(
    '/payments/v2/counterparties',
    {
      config: { permission: 'counterparties:read' },
      schema: {
        tags,
        summary: 'List counterparties, newest first',
        querystring: CounterpartyListQuery,
        response: { 200: ListEnvelope(Counterparty), ...errorResponses(400, 403) },
      },
    },
    (request, reply) => servePage(reply, service.list(request.actor!, request.query)),
  )

  app.get(
    '/payments/v2/counterparties/:id',
    {
      config: { permission: 'counterparties:read' },
      schema: {
        tags,
        summary: 'Get a counterparty by id or external:{externalId}',
        params: IdParams,
        response: { 200: Counterparty, ...errorResponses(400, 403, 404, 410) },
      },
    },
    (request, reply) => serveCounterparty(reply, service.get(request.actor!, parseResourceRef(request.params.id))),
  )

  app.patch(
    '/payments/v2/counterparties/:id',
    {
      config: { permission: 'counterparties:update' },
      schema: {
        tags,
        summary: 'Update a counterparty with a JSON Patch',
        description: `Allowed operations: ${describeRules(COUNTERPARTY_PATCH_RULES)}. Requires If-Match.`,
        params: IdParams,
        headers: IfMatchHeaders,
        body: JsonPatchBody,
        response: { 200: Counterparty, ...errorResponses(400, 403, 404, 410, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), parseResourceRef(request.params.id), requireIfMatch(request), request.body),
  )

  app.delete(
    '/payments/v2/counterparties/:id',
    {
      config: { permission: 'counterparties:delete' },
      schema: {
        tags,
        summary: 'Delete a counterparty and its external accounts',
        description: 'Afterwards they answer 410 Gone. If-Match is optional; when sent it must be current.',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 410, 412) },
      },
    },
    async (request, reply) => {
      const etag = request.headers['if-match']
      await service.remove(commandContext(request, reply, 204), parseResourceRef(request.params.id), etag)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/payments/v2/counterparties/:id/events',
    {
      config: { permission: 'counterparties:read' },
      schema: {
        tags,
        summary: "The counterparty's events, oldest first",
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
