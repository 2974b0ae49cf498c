import type { FastifyRequest } from 'fastify'
import type { Db } from '../../db/database.js'
import { ApiError } from '../../http/errors.js'
import type { Actor } from '../actor.js'
import { isPermission, type Permission } from '../permissions.js'
import { CHANGE_PASSWORD_PATH, SESSION_PATH, SIGN_OUT_PATH } from './session.paths.js'
import { CSRF_HEADER, csrfTokenMatches, isSameOrigin, SESSION_CHALLENGE, tokenDigest } from './session-cookie.js'
import { LAST_SEEN_RESOLUTION_MILLISECONDS } from './session.policy.js'
import { sessionRepo, type SessionGrant } from './session.repo.js'

/** The routes a session signed in with a one-time password may call: read itself, sign out, set a password. */
export const PASSWORD_CHANGE_ROUTES = new Set([`GET ${SESSION_PATH}`, `POST ${SIGN_OUT_PATH}`, `POST ${CHANGE_PASSWORD_PATH}`])

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

function actorOf(grant: SessionGrant): Actor {
  return {
    organizationId: grant.organizationId,
    userId: grant.userId,
    // The rate limit counts per credential: for a person, per session.
    accessKeyId: grant.sessionId,
    sessionId: grant.sessionId,
    roleId: grant.roleId,
    roleName: grant.roleName,
    owner: grant.owner === 1,
    permissions: new Set<Permission>((JSON.parse(grant.permissions) as string[]).filter(isPermission)),
    secondFactor: grant.secondFactor === 1,
  }
}

/**
 * Resolves the session cookie's token to the Actor of its user, with exactly their current role: the
 * same Actor an access key of theirs would give, so the API guard's permission check is the only one.
 * A session is read on every request (a change of role or a revocation applies at once) and its
 * last_seen_at written at most once a minute.
 * @throws ApiError unauthorized (401) when the session has ended; forbidden (403) for a state-changing
 * request without a same-origin Origin and the session's CSRF token, or for anything but setting a new
 * password while a one-time password is in use.
 */
export function createSessionAuthenticator(db: Db) {
  return async function authenticateSession(request: FastifyRequest, token: string): Promise<Actor> {
    const now = new Date()
    const grant = await sessionRepo.findGrant(db, tokenDigest(token), now)
    if (!grant) throw new ApiError('unauthorized', 'The session has ended (signed out, expired or revoked): sign in again', undefined, SESSION_CHALLENGE)
    if (!SAFE_METHODS.has(request.method)) {
      // OWASP CSRF Prevention: verify the origin, and a synchronizer token bound to the session.
      if (!isSameOrigin(request)) {
        throw new ApiError('forbidden', "A request with the session cookie must come from this server's own pages: its Origin header is missing or foreign")
      }
      if (!csrfTokenMatches(token, request.headers[CSRF_HEADER])) {
        throw new ApiError('forbidden', "A request with the session cookie needs the session's CSRF token in the X-CSRF-Token header")
      }
    }
    if (grant.passwordChangeRequired === 1 && !PASSWORD_CHANGE_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) {
      throw new ApiError('forbidden', 'You signed in with a one-time password: set a new one first (POST /iam/v2/session/password:change)')
    }
    if (now.getTime() - Date.parse(grant.lastSeenAt) >= LAST_SEEN_RESOLUTION_MILLISECONDS) {
      await sessionRepo.touch(db, grant.sessionId, now.toISOString())
    }
    return actorOf(grant)
  }
}
