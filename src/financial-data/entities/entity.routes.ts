import { Type } from 'typebox'
import { Event } from '../../events/index.js'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createEntityService } from './entity.service.js'
import { CreateEntity, ENTITY_PATCH_RULES, Entity, EntityListQuery, EntityPatchBody } from './entity.schemas.js'

const tags = ['Entities']
const BASE = '/financial-data/v2/entities'

export function entityRoutes(app: ApiApp): void {
  const service = createEntityService(app.database)

  app.post(
    BASE,
    {
      config: { permission: 'entities:create' },
      schema: {
        tags,
        summary: 'Create an entity',
        description:
          'A legal entity of the organization: own accounts belong to one, counterparties may be scoped to some. parentId, ' +
          'when given, names another live entity of the organization (400 otherwise). 409 external_id_taken when the ' +
          'externalId is already used. When a live entity equivalent to the request exists (every field given equal, every ' +
          'field left out absent from it too), the answer is 200 with that entity and nothing is created, as the ' +
          'reference does: a create retried without an Idempotency-Key makes no second entity.',
        body: CreateEntity,
        response: { 200: Entity, 201: Entity, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    // The context sets the status: 201, or 200 when the create found an equivalent entity.
    async (request, reply) => reply.send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    BASE,
    {
      config: { permission: 'entities:read' },
      schema: {
        tags,
        summary: "List the organization's entities, oldest first",
        description:
          'Live entities; parentId keeps those directly under one entity. The first entity without a parent is the ' +
          'default of accounts registered without an entityId.',
        querystring: EntityListQuery,
        response: { 200: ListEnvelope(Entity), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'entities:read' },
      schema: {
        tags,
        summary: 'Get an entity by id or external:{externalId}',
        description: '410 Gone once the entity was deleted.',
        params: IdParams,
        response: { 200: Entity, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.patch(
    `${BASE}/:id`,
    {
      config: { permission: 'entities:update' },
      schema: {
        tags,
        summary: 'Update an entity with a JSON Patch',
        description:
          `Allowed operations: ${describeRules(ENTITY_PATCH_RULES)}; externalId stays as created. A new parentId must name ` +
          'another live entity of the organization that is not below this one (400 otherwise: no cycles). Requires If-Match.',
        params: IdParams,
        headers: IfMatchHeaders,
        body: EntityPatchBody,
        response: { 200: Entity, ...errorResponses(400, 403, 404, 410, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), parseResourceRef(request.params.id), requireIfMatch(request), request.body),
  )

  app.delete(
    `${BASE}/:id`,
    {
      config: { permission: 'entities:delete' },
      schema: {
        tags,
        summary: 'Delete an entity',
        description:
          'Afterwards it answers 410 Gone. Requires If-Match. 409 conflict while accounts belong to it, other entities name ' +
          'it as their parent, or counterparties are scoped to it (entityIds).',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 409, 410, 412, 428) },
      },
    },
    async (request, reply) => {
      await service.remove(commandContext(request, reply, 204), parseResourceRef(request.params.id), requireIfMatch(request))
      return reply.code(204).send(null)
    },
  )

  app.get(
    `${BASE}/:id/events`,
    {
      config: { permission: 'entities:read' },
      schema: {
        tags,
        summary: "The entity's events, oldest first",
        description: 'CREATED, UPDATED, DELETED, each with the version of the entity after it; still readable after it was deleted.',
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
