import type { Database, Executor } from '../../db/database.js'
import { recordEvent, SYSTEM_ORIGINATOR } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { recordAuditEntry, type AuditContext } from '../audit-log/audit-log.service.js'
import { passwordRepo } from '../passwords/password.repo.js'
import { requireSession } from '../sessions/session-view.js'
import { sessionRepo } from '../sessions/session.repo.js'
import { verifyOwnPassword } from '../sessions/session.service.js'
import type { SignInContext } from '../sessions/sign-in.service.js'
import { toUser, userRepo } from '../users/user.repo.js'
import { loadUser, USERS } from '../users/user.service.js'
import { acceptedStep, newTotpSecret, totpUri } from './totp.js'
import { totpRepo } from './totp.repo.js'
import type { TotpEnrollment } from './totp.schemas.js'

/** Turning TOTP on or off is a new version of the user and an event in its history, as a new access key is. */
async function recordTotpEvent(trx: Executor, organizationId: string, userId: string, name: 'TOTP_ENABLED' | 'TOTP_DISABLED', originator: string): Promise<void> {
  const user = await userRepo.touch(trx, userId, nowIso())
  if (!user) throw new ApiError('gone', `The user ${userId} was deleted`)
  const message = name === 'TOTP_ENABLED' ? 'TOTP enabled: sign-in asks for a code' : 'TOTP disabled'
  await recordEvent(trx, { organizationId, entityType: USERS, entityId: userId, type: 'UPDATED', name, originator, message, entity: toUser(user) })
}

/** Issue 13: the audit entry of TOTP turned on or off (never the secret: only whether it is enabled). */
function recordTotpChange(trx: Executor, context: AuditContext, userId: string, action: string, enabled: boolean): Promise<void> {
  return recordAuditEntry(trx, context, { action, resourceType: USERS, resourceId: userId, before: { totpEnabled: !enabled }, after: { totpEnabled: enabled } })
}

/**
 * `kassa users reset-totp`: for a person who lost their authenticator app. TOTP is disabled and their
 * sessions end; they sign in with their password and may enroll a new app.
 * @throws Error when the organization has no such person, or they have no TOTP.
 */
export async function resetPersonTotp(database: Database, organizationId: string, email: string): Promise<void> {
  await database.transaction(async (trx) => {
    const user = await passwordRepo.personByEmail(trx, organizationId, email.toLowerCase())
    if (!user) throw new Error(`Organization ${organizationId} has no person (HUMAN user) with the email ${email.toLowerCase()}`)
    if (!(await totpRepo.find(trx, user.id))) throw new Error(`${user.email} has no TOTP to reset`)
    await totpRepo.remove(trx, user.id)
    await sessionRepo.revokeAllOf(trx, user.id, nowIso())
    await recordTotpEvent(trx, organizationId, user.id, 'TOTP_DISABLED', SYSTEM_ORIGINATOR)
    await recordTotpChange(trx, { actor: { type: 'SYSTEM', organizationId } }, user.id, 'totp.reset', false)
  })
}

/** The signed-in person's own authenticator app (RFC 6238): enroll, confirm with a first code, disable. */
export function createTotpService(database: Database) {
  return {
    /**
     * A new secret for the person's authenticator app, shown once; sign-in asks for codes only after
     * `confirm`. Replaces an enrollment not yet confirmed.
     * @throws ApiError not_found (404: access key), forbidden (403: wrong password), rate_limited (429),
     * conflict (409: TOTP is already enabled).
     */
    async enroll(ctx: CommandContext, password: string, context: SignInContext): Promise<TotpEnrollment> {
      await verifyOwnPassword(database, ctx.actor, password, context)
      const secret = newTotpSecret()
      let email = ''
      // The transaction stores the response for Idempotency-Key replays: without the secret.
      await ctx.transaction(async (trx) => {
        const user = await loadUser(trx, ctx.actor.organizationId, ctx.actor.userId)
        email = user.email ?? user.id
        if ((await totpRepo.find(trx, user.id))?.confirmed_at) throw new ApiError('conflict', 'TOTP is already enabled; disable it first to enroll another app')
        await totpRepo.setUnconfirmed(trx, { user_id: user.id, secret, confirmed_at: null, last_used_step: 0, created: nowIso() })
        return {}
      })
      return { secret, uri: totpUri(secret, email) }
    },

    /**
     * Enables TOTP with a first code from the app; this session then counts as signed in with a second factor.
     * @throws ApiError not_found (404: access key), conflict (409: nothing to confirm), invalid_request (400: wrong code).
     */
    async confirm(ctx: CommandContext, code: string): Promise<void> {
      const sessionId = requireSession(ctx.actor)
      await ctx.transaction(async (trx) => {
        const totp = await totpRepo.find(trx, ctx.actor.userId)
        if (!totp || totp.confirmed_at) throw new ApiError('conflict', 'There is no TOTP enrollment to confirm: start one with POST /iam/v2/session/totp:enroll')
        const step = acceptedStep(totp.secret, code, totp.last_used_step, new Date())
        if (step === undefined) throw invalidField('code', 'is not the current code of the enrolled authenticator app', 'wrong_code')
        await totpRepo.confirm(trx, ctx.actor.userId, nowIso(), step)
        await sessionRepo.markSecondFactor(trx, sessionId)
        await recordTotpEvent(trx, ctx.actor.organizationId, ctx.actor.userId, 'TOTP_ENABLED', ctx.actor.userId)
        await recordTotpChange(trx, ctx, ctx.actor.userId, 'totp.enable', true)
      })
    },

    /**
     * Disables TOTP; needs the password and a session signed in with a code.
     * @throws ApiError not_found (404: access key), forbidden (403: wrong password, or a session without a
     * second factor), rate_limited (429), conflict (409: TOTP is not enabled).
     */
    async disable(ctx: CommandContext, password: string, context: SignInContext): Promise<void> {
      await verifyOwnPassword(database, ctx.actor, password, context)
      if (!ctx.actor.secondFactor) throw new ApiError('forbidden', 'Disabling TOTP needs a session signed in with a TOTP code')
      await ctx.transaction(async (trx) => {
        if (!(await totpRepo.find(trx, ctx.actor.userId))?.confirmed_at) throw new ApiError('conflict', 'TOTP is not enabled')
        await totpRepo.remove(trx, ctx.actor.userId)
        await recordTotpEvent(trx, ctx.actor.organizationId, ctx.actor.userId, 'TOTP_DISABLED', ctx.actor.userId)
        await recordTotpChange(trx, ctx, ctx.actor.userId, 'totp.disable', false)
      })
    },
  }
}
