import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { errorResponses } from '../../http/route-schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import { OneTimePassword } from './password.schemas.js'
import { createPasswordService } from './password.service.js'

const tags = ['Users']
const UserParams = Type.Object({ id: ResourceId })

export function passwordRoutes(app: ApiApp): void {
  const service = createPasswordService()

  app.post(
    '/iam/v2/users/:id/one-time-password',
    {
      config: { permission: 'users:update' },
      schema: {
        tags,
        summary: 'Give a person a one-time password to sign in with (an invitation, or a reset); shown once',
        description:
          'For HUMAN users. The person signs in with it (POST /iam/v2/session) and can do nothing but choose their own ' +
          'password until they have. It replaces any password they had, and ends their sessions; TOTP stays as it was. ' +
          'Only the hash is kept: a replay of this request by its Idempotency-Key answers without the password. You may ' +
          'only do this for users whose role you could assign, and only an Owner for an Owner.',
        params: UserParams,
        response: { 201: OneTimePassword, ...errorResponses(400, 403, 404, 410, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const given = await service.giveOneTimePassword(commandContext(request, reply, 201), request.params.id.toLowerCase())
      return reply.code(201).send(given)
    },
  )
}
