import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ListEnvelope } from '../../http/pagination.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import { createAccessKeyService } from './access-key.service.js'
import { AccessKey, AccessKeyListQuery, AccessKeyParams, NewAccessKey } from './access-key.schemas.js'

const tags = ['Users']
const UserParams = Type.Object({ id: ResourceId })

export function accessKeyRoutes(app: ApiApp): void {
  const service = createAccessKeyService(app.database)

  app.post(
    '/iam/v2/users/:id/access-keys',
    {
      config: { permission: 'users:update' },
      schema: {
        tags,
        summary: "Create an access key for a user; the response holds its secret, shown once",
        description:
          'Use accessKey:secret as HTTP Basic credentials. Only the digest of the secret is kept: a replay of this ' +
          'request by its Idempotency-Key returns the key without the secret. At most 10 active keys per user. ' +
          'You may only create keys for users whose role you could assign, and only an Owner for an Owner.',
        params: UserParams,
        response: { 201: NewAccessKey, ...errorResponses(400, 403, 404, 409, 410, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const key = await service.create(commandContext(request, reply, 201), request.params.id.toLowerCase())
      return reply.code(201).send(key)
    },
  )

  app.get(
    '/iam/v2/users/:id/access-keys',
    {
      config: { permission: 'users:read' },
      schema: {
        tags,
        summary: "List a user's active access keys, oldest first, without secrets",
        description:
          'Revoked keys are not listed; secrets are never shown again after their key was created. 410 Gone once the ' +
          'user was deleted.',
        params: UserParams,
        querystring: AccessKeyListQuery,
        response: { 200: ListEnvelope(AccessKey), ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.list(request.actor!, request.params.id.toLowerCase(), request.query),
  )

  app.delete(
    '/iam/v2/users/:id/access-keys/:keyId',
    {
      config: { permission: 'users:update' },
      schema: {
        tags,
        summary: 'Revoke an access key',
        description:
          'The key stops working at once (in other server processes within the authentication cache lifetime, 5 seconds ' +
          'by default); a revoked key answers 410. The last active key of the last Owner cannot be revoked (409).',
        params: AccessKeyParams,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 409, 410) },
      },
    },
    async (request, reply) => {
      await service.revoke(commandContext(request, reply, 204), request.params.id.toLowerCase(), request.params.keyId.toLowerCase())
      return reply.code(204).send(null)
    },
  )
}
