import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { ApiError } from '../../http/errors.js'
import { ListEnvelope } from '../../http/pagination.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import { clearedSessionCookie, isCrossSite, sessionCookie, sessionTokenOf } from './session-cookie.js'
import { CHANGE_PASSWORD_PATH, SESSION_PATH, SIGN_OUT_PATH } from './session.paths.js'
import { ChangePassword, Session, SessionListQuery, SessionParams, SessionSummary, SignIn } from './session.schemas.js'
import { createSessionService } from './session.service.js'
import { createSignInService, type SignInContext } from './sign-in.service.js'

// Sessions belong to users, as their access keys do.
const tags = ['Users']
const UserParams = Type.Object({ id: ResourceId })

const COOKIE_RULES =
  'The session travels in the `kassa_session` cookie (HttpOnly, SameSite=Strict, Path=/, Secure unless the server is reached ' +
  'over plain http on a loopback address). Every POST, PATCH, PUT and DELETE made with it also needs the X-CSRF-Token header ' +
  "(the session's csrfToken) and an Origin header naming this server; a request with Basic credentials or a bearer token is " +
  'authenticated by them alone, whatever cookie it carries.'

export function signInContext(request: FastifyRequest): SignInContext {
  return { address: request.ip, userAgent: request.headers['user-agent'], log: request.log, requestId: request.id }
}

/** POST /iam/v2/session takes no credentials: it is registered in the public scope (src/app.ts). */
export function signInRoutes(app: ApiApp): void {
  const service = createSignInService(app.database)

  app.post(
    SESSION_PATH,
    {
      schema: {
        tags,
        summary: 'Sign in: start a session for a person',
        description:
          'Checks the email and password of a HUMAN user (and the code of their authenticator app when they enabled TOTP: ' +
          'without `totp` the answer is a 401 whose details name it) and sets the session cookie. A wrong email and a wrong ' +
          'password get the same 401. After 5 failures in a row for an email, or 20 from an address, sign-in locks for 30 ' +
          'seconds, doubling with each further failure up to 15 minutes (429 with Retry-After). A session ends after 30 ' +
          `minutes without a request, 12 hours after sign-in, at sign-out, or when revoked. A browser's sign-in must come from ` +
          `this server's own pages (a foreign Origin is a 403). ${COOKIE_RULES}`,
        body: SignIn,
        response: { 201: Session, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      // Login CSRF: another site's page must not sign the browser in (as someone else).
      if (isCrossSite(request)) throw new ApiError('forbidden', "Sign-in is only accepted from this server's own pages (the Origin header is foreign)")
      const { session, token } = await service.signIn(request.body, signInContext(request))
      return reply.code(201).header('set-cookie', sessionCookie(request, token)).send(session)
    },
  )
}

export function sessionRoutes(app: ApiApp): void {
  const service = createSessionService(app.database)

  app.get(
    SESSION_PATH,
    {
      config: { permission: null },
      schema: {
        tags,
        summary: 'Get the signed-in session',
        description: `Who is signed in, their role and permissions, and the CSRF token (also after a page reload). 404 for a request made with an access key. ${COOKIE_RULES}`,
        response: { 200: Session, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.current(request.actor!, sessionTokenOf(request) ?? ''),
  )

  app.post(
    SIGN_OUT_PATH,
    {
      config: { permission: null },
      schema: {
        tags,
        summary: 'Sign out: end the signed-in session',
        description: 'The session ends at once and the cookie is cleared. 404 for a request made with an access key.',
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 422, 425) },
      },
    },
    async (request, reply) => {
      await service.signOut(request.actor!)
      return reply.code(204).header('set-cookie', clearedSessionCookie(request)).send(null)
    },
  )

  app.post(
    CHANGE_PASSWORD_PATH,
    {
      config: { permission: null },
      schema: {
        tags,
        summary: "Change the signed-in person's password",
        description:
          'Needs the current password. The new one has at least 12 characters and is not among the most common passwords. ' +
          'Every other session of the person ends. After signing in with a one-time password, this is the only change allowed.',
        body: ChangePassword,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      await service.changePassword(commandContext(request, reply, 204), request.body, signInContext(request))
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/iam/v2/users/:id/sessions',
    {
      config: { permission: 'users:read' },
      schema: {
        tags,
        summary: "List a user's live sessions, oldest first",
        description: 'Sessions that have not ended: never their tokens.',
        params: UserParams,
        querystring: SessionListQuery,
        response: { 200: ListEnvelope(SessionSummary), ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.list(request.actor!, request.params.id.toLowerCase(), request.query),
  )

  app.delete(
    '/iam/v2/users/:id/sessions/:sessionId',
    {
      config: { permission: 'users:update' },
      schema: {
        tags,
        summary: 'End a session of a user',
        description: "Its next request answers 401. Only an Owner may end an Owner's sessions (anyone may end their own).",
        params: SessionParams,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request, reply) => {
      await service.revoke(commandContext(request, reply, 204), request.params.id.toLowerCase(), request.params.sessionId.toLowerCase())
      return reply.code(204).send(null)
    },
  )
}
