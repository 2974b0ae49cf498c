import type { Database } from '../../db/database.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import type { Actor } from '../actor.js'
import { recordAuditEntry } from '../audit-log/audit-log.service.js'
import { hashPassword, verifyPassword } from '../passwords/password-hash.js'
import { assertAcceptablePassword } from '../passwords/password-policy.js'
import { passwordRepo } from '../passwords/password.repo.js'
import { storePassword } from '../passwords/password.service.js'
import { assertMayRevokeOwnerRights } from '../privileges.js'
import { loadUser, roleOf, USERS } from '../users/user.service.js'
import { describeSession, ownSession, requireSession } from './session-view.js'
import { sessionRepo, toSessionSummary } from './session.repo.js'
import type { ChangePassword, Session, SessionListQuery, SessionSummary } from './session.schemas.js'
import { assertNotLockedOut, recordSignInFailure, SESSIONS, type SignInContext } from './sign-in.service.js'
import { signInSubjects } from './sign-in-lockout.js'

/**
 * Checks the signed-in person's own password before a change that needs it (a new password, TOTP), so
 * that a session left open on someone's desk is not enough. Failures count towards the sign-in lockout.
 * @throws ApiError not_found (404: an access key's request), forbidden (403: wrong password), rate_limited (429).
 */
export async function verifyOwnPassword(database: Database, actor: Actor, password: string, context: SignInContext): Promise<void> {
  requireSession(actor)
  const user = await loadUser(database.db, actor.organizationId, actor.userId)
  const subjects = signInSubjects(user.email ?? user.id, context.address)
  const now = new Date()
  await assertNotLockedOut(database, subjects, now)
  const stored = await passwordRepo.find(database.db, user.id)
  if (stored && (await verifyPassword(password, stored.password_hash))) return
  await recordSignInFailure(database, subjects, [user], context, now)
  throw new ApiError('forbidden', 'The password is wrong')
}

export function createSessionService(database: Database) {
  return {
    /** @throws ApiError not_found (404: the request used an access key). */
    async current(actor: Actor, token: string): Promise<Session> {
      return describeSession(database.db, await ownSession(database.db, actor), token)
    },

    /** Ends the Actor's session (sign-out). @throws ApiError not_found (404: the request used an access key). */
    async signOut(actor: Actor): Promise<void> {
      await sessionRepo.revoke(database.db, requireSession(actor), nowIso())
    },

    /**
     * Replaces the signed-in person's password (also a one-time one) after checking the current one; every
     * other session of theirs ends, this one stays.
     * @throws ApiError not_found (404: access key), forbidden (403: wrong current password), rate_limited
     * (429), invalid_request (400: the new password is too short, too common, or the current one).
     */
    async changePassword(ctx: CommandContext, input: ChangePassword, context: SignInContext): Promise<void> {
      const sessionId = requireSession(ctx.actor)
      await verifyOwnPassword(database, ctx.actor, input.currentPassword, context)
      const user = await loadUser(database.db, ctx.actor.organizationId, ctx.actor.userId)
      assertAcceptablePassword(input.newPassword, user.email ?? '', 'newPassword')
      if (input.newPassword === input.currentPassword) throw invalidField('newPassword', 'must differ from the current password', 'unchanged')
      const hash = await hashPassword(input.newPassword)
      await ctx.transaction(async (trx) => {
        await storePassword(trx, await loadUser(trx, user.organization_id, user.id), { hash, changeRequired: false }, user.id, sessionId)
        // Never the password nor its hash: only that it changed.
        await recordAuditEntry(trx, ctx, { action: 'passwords.change', resourceType: USERS, resourceId: user.id, after: { passwordChangeRequired: false } })
      })
    },

    /** A user's live sessions, oldest first, without tokens. @throws ApiError not_found (404), gone (410), invalid_token (400). */
    async list(actor: Actor, userId: string, query: SessionListQuery): Promise<ListEnvelopeOf<SessionSummary>> {
      await loadUser(database.db, actor.organizationId, userId)
      const page = pageRequest(query, `${USERS}/${userId}/sessions`, {}, ['text'])
      const rows = await sessionRepo.listLive(database.db, userId, page, new Date())
      return pageOf(rows, page, (row) => [row.id], toSessionSummary)
    },

    /**
     * Ends one of a user's sessions: its next request is a 401.
     * @throws ApiError not_found (404), gone (410: already ended), forbidden (403: a non-Owner ending an Owner's session).
     */
    async revoke(ctx: CommandContext, userId: string, sessionId: string): Promise<void> {
      await ctx.transaction(async (trx) => {
        const user = await loadUser(trx, ctx.actor.organizationId, userId)
        const session = await sessionRepo.find(trx, userId, sessionId)
        if (!session) throw new ApiError('not_found', `No session ${sessionId} of user ${userId}`)
        if (userId !== ctx.actor.userId) assertMayRevokeOwnerRights(ctx.actor, await roleOf(trx, user), 'end the sessions of')
        if (!(await sessionRepo.revoke(trx, sessionId, nowIso()))) throw new ApiError('gone', `The session ${sessionId} has already ended`)
        await recordAuditEntry(trx, ctx, { action: 'sessions.revoke', resourceType: SESSIONS, resourceId: sessionId, before: toSessionSummary(session) })
      })
    },
  }
}
