import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import type { IdentityReferences } from '../identity-references.js'
import { createRoleService } from './role.service.js'
import { ROLE_PATCH_RULES, CreateRole, Role, RoleListQuery, RolePatchBody } from './role.schemas.js'

const tags = ['Roles']
const RoleParams = Type.Object({ id: ResourceId })

export function roleRoutes(app: ApiApp, references: IdentityReferences): void {
  const service = createRoleService(app.database, references)

  app.post(
    '/iam/v2/roles',
    {
      config: { permission: 'roles:create' },
      schema: {
        tags,
        summary: 'Create a custom role',
        description: 'A named set of permissions. You may only create roles whose permissions you hold yourself.',
        body: CreateRole,
        response: { 201: Role, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const role = await service.create(commandContext(request, reply, 201), request.body)
      return reply.code(201).send(role)
    },
  )

  app.get(
    '/iam/v2/roles',
    {
      config: { permission: 'roles:read' },
      schema: {
        tags,
        summary: 'List roles, oldest first (the built-in owner, admin and read-only lead)',
        description:
          'The live roles of the organization with their permissions (resource:action). The built-in roles cannot be ' +
          'changed or deleted; the owner role alone has owner rights.',
        querystring: RoleListQuery,
        response: { 200: ListEnvelope(Role), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    '/iam/v2/roles/:id',
    {
      config: { permission: 'roles:read' },
      schema: {
        tags,
        summary: 'Get a role',
        description: 'By its id. 410 Gone once the role was deleted.',
        params: RoleParams,
        response: { 200: Role, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.get(request.actor!, request.params.id.toLowerCase()),
  )

  app.patch(
    '/iam/v2/roles/:id',
    {
      config: { permission: 'roles:update' },
      schema: {
        tags,
        summary: 'Update a custom role with a JSON Patch',
        description:
          `Allowed operations: ${describeRules(ROLE_PATCH_RULES)}. Requires If-Match. Built-in roles are read-only (409). ` +
          'Users holding the role get its new permissions with their next request (in other server processes within the ' +
          'authentication cache lifetime, 5 seconds by default).',
        params: RoleParams,
        headers: IfMatchHeaders,
        body: RolePatchBody,
        response: { 200: Role, ...errorResponses(400, 403, 404, 409, 410, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), request.params.id.toLowerCase(), requireIfMatch(request), request.body),
  )

  app.delete(
    '/iam/v2/roles/:id',
    {
      config: { permission: 'roles:delete' },
      schema: {
        tags,
        summary: 'Delete a custom role',
        description:
          'Refused (409) for built-in roles, while users hold the role, and while a live approval chain names it. ' +
          'Afterwards the role answers 410 Gone and its name is free again. Requires If-Match.',
        params: RoleParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 409, 410, 412, 428) },
      },
    },
    async (request, reply) => {
      await service.remove(commandContext(request, reply, 204), request.params.id.toLowerCase(), requireIfMatch(request))
      return reply.code(204).send(null)
    },
  )
}
