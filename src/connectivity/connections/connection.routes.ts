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
import { createConnectionService } from './connection.service.js'
import { CONNECTION_PATCH_RULES, Connection, ConnectionListQuery, ConnectionPatchBody, CreateConnection } from './connection.schemas.js'

const tags = ['Connections']
const BASE = '/connectivity/v2/connections'

const RULES =
  'The BICs must name a known country; the creditorSchemeId must pass its check digits (EPC262-08) and name a SEPA ' +
  'country; the initiating party is identified by a BIC or one other identifier, not both. outboxDir and inboxDir ' +
  '(FILES only) are absolute paths in normal form inside the server\'s bank files directory (KASSA_BANK_FILES_DIR), ' +
  'apart from each other: 400 otherwise. They are created when missing ' +
  'and must be a directory the server reads and writes: 422 directory_unusable otherwise. 409 conflict when another ' +
  'connection, of this or another organization, uses the same directory, one inside it, or one it lies in.'

/** @param filesDir the server's bank files directory (KASSA_BANK_FILES_DIR), which holds every connection's directories. */
export function connectionRoutes(app: ApiApp, filesDir: string): void {
  const service = createConnectionService(app.database, filesDir)

  app.post(
    BASE,
    {
      config: { permission: 'connections:create' },
      schema: {
        tags,
        summary: 'Create a bank connection',
        description:
          'How payments of the accounts at a bank reach it: FILES (ISO 20022 files out and in) or SANDBOX (the simulated ' +
          `bank). messageVersions default to pain.001.001.09 and pain.008.001.08, batchingWindowSeconds to 300. ${RULES} ` +
          '409 external_id_taken when the externalId is already used.',
        body: CreateConnection,
        response: { 201: Connection, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    BASE,
    {
      config: { permission: 'connections:read' },
      schema: {
        tags,
        summary: 'List bank connections, oldest first',
        description: 'Live connections; type filters by FILES or SANDBOX.',
        querystring: ConnectionListQuery,
        response: { 200: ListEnvelope(Connection), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'connections:read' },
      schema: {
        tags,
        summary: 'Get a bank connection by id or external:{externalId}',
        description: '410 Gone once the connection was deleted.',
        params: IdParams,
        response: { 200: Connection, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.patch(
    `${BASE}/:id`,
    {
      config: { permission: 'connections:update' },
      schema: {
        tags,
        summary: 'Update a bank connection with a JSON Patch',
        description:
          `Allowed operations: ${describeRules(CONNECTION_PATCH_RULES)}; type and externalId stay as created. The result is ` +
          `checked as at creation. ${RULES} Requires If-Match.`,
        params: IdParams,
        headers: IfMatchHeaders,
        body: ConnectionPatchBody,
        response: { 200: Connection, ...errorResponses(400, 403, 404, 409, 410, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), parseResourceRef(request.params.id), requireIfMatch(request), request.body),
  )

  app.delete(
    `${BASE}/:id`,
    {
      config: { permission: 'connections:delete' },
      schema: {
        tags,
        summary: 'Delete a bank connection',
        description:
          'Afterwards it answers 410 Gone; its directories and their files stay on disk. Requires If-Match. 409 conflict while ' +
          'an account is registered with it (its thirdPartyId).',
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
      config: { permission: 'connections:read' },
      schema: {
        tags,
        summary: "The bank connection's events, oldest first",
        description: 'CREATED, UPDATED, DELETED, each with the version of the connection after it; still readable after it was deleted.',
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.events(request.actor!, parseResourceRef(request.params.id), request.query),
  )
}
