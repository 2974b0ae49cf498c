import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import type { IdentityReferences } from '../identity-references.js'
import { createUserService } from './user.service.js'
import { USER_PATCH_RULES, CreateUser, User, UserListQuery, UserPatchBody } from './user.schemas.js'

const tags = ['Users']
const UserParams = Type.Object({ id: ResourceId })

const OWNER_RULE =
  'The organization always keeps an Owner with an active access key (409 otherwise), and only an Owner may grant or take away owner rights.'

const STATUS_CHANGES = [
  [
    'deactivate',
    'Deactivate a user',
    "The user's access keys and sessions stop working at once (in other server processes within the authentication " +
      'cache lifetime, 5 seconds by default), their sessions end, and they cannot sign in; the keys are kept. ' +
      'Answers the user, now DEACTIVATED. 409 when already deactivated, or when no active Owner with an active ' +
      'access key would remain.',
  ],
  [
    'reactivate',
    'Reactivate a deactivated user',
    'Their access keys work again and they can sign in; sessions that ended stay ended. Answers the user, now ACTIVE. ' +
      '409 when the user is not deactivated.',
  ],
] as const

export function userRoutes(app: ApiApp, references: IdentityReferences): void {
  const service = createUserService(app.database, references)

  app.post(
    '/iam/v2/users',
    {
      config: { permission: 'users:create' },
      schema: {
        tags,
        summary: 'Create a human or programmatic user',
        description:
          'HUMAN users need an email; PROGRAMMATIC users have none and act through access keys ' +
          '(POST /iam/v2/users/{id}/access-keys). You may only assign roles whose permissions you hold. ' +
          OWNER_RULE,
        body: CreateUser,
        response: { 201: User, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const user = await service.create(commandContext(request, reply, 201), request.body)
      return reply.code(201).send(user)
    },
  )

  app.get(
    '/iam/v2/users',
    {
      config: { permission: 'users:read' },
      schema: {
        tags,
        summary: 'List live users, oldest first',
        description: 'Filters: type (HUMAN, PROGRAMMATIC) and roleId. Deleted users are not listed.',
        querystring: UserListQuery,
        response: { 200: ListEnvelope(User), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    '/iam/v2/users/:id',
    {
      config: { permission: 'users:read' },
      schema: {
        tags,
        summary: 'Get a user',
        description: 'By its id, with the role it holds. 410 Gone once the user was deleted.',
        params: UserParams,
        response: { 200: User, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.get(request.actor!, request.params.id.toLowerCase()),
  )

  app.patch(
    '/iam/v2/users/:id',
    {
      config: { permission: 'users:update' },
      schema: {
        tags,
        summary: 'Update a user with a JSON Patch',
        description:
          `Allowed operations: ${describeRules(USER_PATCH_RULES)} (email of HUMAN users only). Requires If-Match. ` +
          `A new role applies to the user's keys from their next request. ${OWNER_RULE}`,
        params: UserParams,
        headers: IfMatchHeaders,
        body: UserPatchBody,
        response: { 200: User, ...errorResponses(400, 403, 404, 409, 410, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), request.params.id.toLowerCase(), requireIfMatch(request), request.body),
  )

  for (const [action, summary, description] of STATUS_CHANGES) {
    app.post(
      `/iam/v2/users/:id(^.+)::${action}`,
      {
        config: { permission: 'users:update' },
        schema: {
          tags,
          summary,
          description: `${description} You may only do this for users whose role you could assign, and only an Owner for an Owner.`,
          params: UserParams,
          response: { 200: User, ...errorResponses(400, 403, 404, 409, 410, 422, 425) },
        },
      },
      async (request, reply) => service[action](commandContext(request, reply, 200), request.params.id.toLowerCase()),
    )
  }

  app.delete(
    '/iam/v2/users/:id',
    {
      config: { permission: 'users:delete' },
      schema: {
        tags,
        summary: 'Delete a user and revoke its access keys',
        description:
          'The keys stop working at once (in other server processes within the authentication cache lifetime, 5 seconds ' +
          'by default). Refused (409) while a live approval chain names the user as an approver. Afterwards the user ' +
          `answers 410 Gone; payments and events keep referring to it. Requires If-Match. ${OWNER_RULE}`,
        params: UserParams,
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
