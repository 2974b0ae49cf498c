import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { serializedOncePerResult } from '../../http/serialize-once.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createCounterpartyService } from './counterparty.service.js'
import { COUNTERPARTY_PATCH_RULES, Counterparty, CounterpartyListQuery, CounterpartyPatchBody, CreateCounterparty } from './counterparty.schemas.js'

const tags = ['Counterparties']

export function counterpartyRoutes(app: ApiApp): void {
  const service = createCounterpartyService(app.database)
  // GET results may come from the service's read cache: each cached object is serialized once.
  const serveCounterparty = serializedOncePerResult()
  const servePage = serializedOncePerResult()

  app.post(
    '/payments/v2/counterparties',
    {
      // Nothing but the body's validation before the service's one transaction, where the key is looked up (issue 14).
      config: { permission: 'counterparties:create', idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Create a counterparty with its external accounts',
        description:
          'Up to 25 external accounts, each with its identifiers; IBANs are checked (checksum, country format) and stored ' +
          "in electronic form, without spaces. The answer holds each account's id: the destination.id of a credit " +
          'transfer (spec: Typical flow 1). entityIds scopes it to entities of the organization (400 unless each is a ' +
          'live one; none: the whole organization). 409 external_id_taken when the externalId of the counterparty or of an ' +
          'account is already used.',
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
        description:
          'Live counterparties with their live external accounts. query (3 to 100 characters) matches legal name and ' +
          'alias as text, and account numbers with spaces ignored, so a pasted IBAN finds its counterparty.',
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
        description: 'With its live external accounts. 410 Gone once the counterparty was deleted.',
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
        body: CounterpartyPatchBody,
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
        description: 'Afterwards they answer 410 Gone. Requires If-Match.',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 410, 412, 428) },
      },
    },
    async (request, reply) => {
      await service.remove(commandContext(request, reply, 204), parseResourceRef(request.params.id), requireIfMatch(request))
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
        description:
          "The counterparty's history (CREATED, UPDATED, DELETED), each event with the version of the counterparty after " +
          'it; still readable after the counterparty was deleted. Its external accounts have events of their own; as the ' +
          'counterparty lists them, adding, changing or deleting one is also an UPDATED event of the counterparty, named ' +
          'EXTERNAL_ACCOUNT_ADDED, EXTERNAL_ACCOUNT_UPDATED or EXTERNAL_ACCOUNT_DELETED.',
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
