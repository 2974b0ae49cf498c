import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { TOTP_CONFIRM_PATH, TOTP_DISABLE_PATH, TOTP_ENROLL_PATH } from '../sessions/session.paths.js'
import { signInContext } from '../sessions/session.routes.js'
import { ConfirmTotp, DisableTotp, EnrollTotp, TotpEnrollment } from './totp.schemas.js'
import { createTotpService } from './totp.service.js'

const tags = ['Users']

export function totpRoutes(app: ApiApp): void {
  const service = createTotpService(app.database)

  app.post(
    TOTP_ENROLL_PATH,
    {
      config: { permission: null },
      schema: {
        tags,
        summary: 'Start enrolling an authenticator app (TOTP) for the signed-in person; the secret is shown once',
        description:
          'Needs the current password. Show `uri` as a QR code (or `secret` to type in); TOTP is enabled once a first code ' +
          'is confirmed (POST /iam/v2/session/totp:confirm). Codes: RFC 6238, SHA-1, 6 digits, 30 seconds.',
        body: EnrollTotp,
        response: { 201: TotpEnrollment, ...errorResponses(400, 403, 404, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const enrollment = await service.enroll(commandContext(request, reply, 201), request.body.password, signInContext(request))
      return reply.code(201).send(enrollment)
    },
  )

  app.post(
    TOTP_CONFIRM_PATH,
    {
      config: { permission: null },
      schema: {
        tags,
        summary: 'Enable TOTP with a first code from the authenticator app',
        description: 'From then on sign-in asks for a code, and this session counts as signed in with a second factor.',
        body: ConfirmTotp,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      await service.confirm(commandContext(request, reply, 204), request.body.code)
      return reply.code(204).send(null)
    },
  )

  app.post(
    TOTP_DISABLE_PATH,
    {
      config: { permission: null },
      schema: {
        tags,
        summary: 'Disable TOTP for the signed-in person',
        description: 'Needs the current password and a session signed in with a TOTP code.',
        body: DisableTotp,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      await service.disable(commandContext(request, reply, 204), request.body.password, signInContext(request))
      return reply.code(204).send(null)
    },
  )
}
