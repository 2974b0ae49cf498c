import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/database.js'
import type { SessionsTable, UsersTable } from '../../db/schema.js'
import { recordEvent, SYSTEM_ORIGINATOR } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { isoAfter } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { recordAuditEntry } from '../audit-log/audit-log.service.js'
import { hashOfNobody, hashPassword, needsRehash, verifyPassword } from '../passwords/password-hash.js'
import { passwordRepo, type PersonWithPassword } from '../passwords/password.repo.js'
import { acceptedStep } from '../totp/totp.js'
import { totpRepo } from '../totp/totp.repo.js'
import { toUser } from '../users/user.repo.js'
import { USERS } from '../users/user.service.js'
import { newSessionToken, tokenDigest } from './session-cookie.js'
import { describeSession } from './session-view.js'
import { ENDED_SESSIONS_KEPT_MILLISECONDS, SESSION_LIFETIME_MILLISECONDS } from './session.policy.js'
import { sessionRepo, toSessionSummary } from './session.repo.js'
import type { Session, SignIn } from './session.schemas.js'
import { signInLockout, signInSubjects, type SignInSubject } from './sign-in-lockout.js'

/** Where a sign-in (or a password check in a session) comes from. */
export interface SignInContext {
  address: string
  userAgent?: string
  log: FastifyBaseLogger
  /** The request's request-id, for the audit log. */
  requestId?: string
}

/** The audit log's resource type of sessions. */
export const SESSIONS = 'sessions'

/** One message for an unknown email and a wrong password, so that neither tells which emails exist. */
const WRONG_CREDENTIALS = 'Wrong email or password'

/**
 * Refuses at once, without checking the password, while the account or the address is locked.
 * @param failures what failed, for the message.
 * @throws ApiError rate_limited (429, with Retry-After).
 */
export async function assertNotLockedOut(
  database: Database,
  subjects: readonly SignInSubject[],
  now: Date,
  failures = 'sign-ins for this email or from this address',
): Promise<void> {
  const until = await signInLockout.lockedUntil(database.db, subjects, now)
  if (until === undefined) return
  const seconds = Math.max(1, Math.ceil((Date.parse(until) - now.getTime()) / 1000))
  throw new ApiError('rate_limited', `Too many failed ${failures}; try again in ${seconds} seconds`, undefined, {
    'Retry-After': String(seconds),
  })
}

/**
 * Counts a failure against the account and the address; a lockout it starts is an event (SIGN_IN_LOCKED)
 * of every user the attempt named, and a warning in the log.
 */
export async function recordSignInFailure(
  database: Database,
  subjects: readonly SignInSubject[],
  named: readonly UsersTable[],
  context: SignInContext,
  now: Date,
): Promise<void> {
  const lockouts = await database.transaction(async (trx) => {
    const started = await signInLockout.recordFailure(trx, subjects, now)
    // Issue 13: a failure is logged in the organization of each user the email names (the claimed actor); an
    // email that names nobody belongs to no organization, so it is counted for the lockout but logged nowhere.
    for (const user of named) {
      const actor = { type: 'USER' as const, organizationId: user.organization_id, userId: user.id }
      await recordAuditEntry(trx, { actor, requestId: context.requestId, clientAddress: context.address }, { action: 'sign_in.failed', resourceType: USERS, resourceId: user.id })
    }
    for (const lockout of started) {
      const which = lockout.subject.kind === 'account' ? 'for this email' : `from the address ${context.address}`
      for (const user of named) {
        await recordEvent(trx, {
          organizationId: user.organization_id,
          entityType: USERS,
          entityId: user.id,
          type: 'UPDATED',
          name: 'SIGN_IN_LOCKED',
          originator: SYSTEM_ORIGINATOR,
          message: `Sign-in locked until ${lockout.lockedUntil} after ${lockout.failures} failed attempts ${which}`,
          entity: toUser(user),
        })
      }
    }
    return started
  })
  for (const lockout of lockouts) {
    context.log.warn({ lockout: lockout.subject.kind, failures: lockout.failures, lockedUntil: lockout.lockedUntil }, 'sign-in locked out')
  }
}

/** The people whose password this is: every candidate is checked, and an unknown email costs one hash too. */
async function matching(people: readonly PersonWithPassword[], password: string): Promise<PersonWithPassword[]> {
  if (people.length === 0) {
    await verifyPassword(password, await hashOfNobody())
    return []
  }
  const found: PersonWithPassword[] = []
  for (const person of people) if (await verifyPassword(password, person.password_hash)) found.push(person)
  return found
}

/** One message for a wrong and a replayed code: a replay is a wrong code. */
const WRONG_CODE = 'Wrong or already used TOTP code'

export function createSignInService(database: Database) {
  /**
   * The time step of the person's TOTP code: null when they have not enabled TOTP, undefined for a wrong
   * or already used code.
   * @throws ApiError unauthorized (401, with a detail naming `totp`) when they have TOTP and gave no code.
   */
  async function totpStep(person: PersonWithPassword, code: string | undefined, now: Date): Promise<number | null | undefined> {
    const totp = await totpRepo.find(database.db, person.id)
    if (!totp?.confirmed_at) return null
    if (code === undefined) {
      throw new ApiError('unauthorized', 'This account needs the code of its authenticator app', [
        { code: 'totp_required', field: 'totp', error: 'is required: this account has TOTP enabled' },
      ])
    }
    return acceptedStep(totp.secret, code, totp.last_used_step, now)
  }

  return {
    /**
     * Checks the email and password (and the TOTP code when the person has enabled TOTP) and starts a
     * session. The token is returned to be set as the cookie; only its digest is stored.
     * @throws ApiError unauthorized (401: wrong email or password — the same for both —, a wrong TOTP code,
     * or `totp` missing, with a detail naming it), rate_limited (429: locked out), invalid_request (400:
     * the email signs in to several organizations and organizationId is missing).
     */
    async signIn(input: SignIn, context: SignInContext): Promise<{ session: Session; token: string }> {
      const now = new Date()
      const email = input.email.toLowerCase()
      const subjects = signInSubjects(email, context.address)
      await assertNotLockedOut(database, subjects, now)
      const people = await passwordRepo.peopleByEmail(database.db, email, input.organizationId?.toLowerCase())
      const fail = async (message: string): Promise<never> => {
        await recordSignInFailure(database, subjects, people, context, now)
        throw new ApiError('unauthorized', message)
      }
      const found = await matching(people, input.password)
      if (found.length === 0) return fail(WRONG_CREDENTIALS)
      if (found.length > 1) throw invalidField('organizationId', 'is required: this email and password sign in to several organizations', 'required')
      const person = found[0]!
      const step = await totpStep(person, input.totp, now)
      if (step === undefined) return fail(WRONG_CODE)
      const rehash = needsRehash(person.password_hash) ? await hashPassword(input.password) : undefined
      const token = newSessionToken()
      const at = now.toISOString()
      const row: SessionsTable = {
        id: newId(),
        organization_id: person.organization_id,
        user_id: person.id,
        token_digest: tokenDigest(token),
        second_factor: step === null ? 0 : 1,
        user_agent: context.userAgent?.slice(0, 512) ?? null,
        address: context.address,
        created: at,
        last_seen_at: at,
        expires_at: isoAfter(SESSION_LIFETIME_MILLISECONDS, now),
        revoked_at: null,
      }
      const session = await database.transaction(async (trx) => {
        if (step !== null && !(await totpRepo.use(trx, person.id, step))) return undefined
        await signInLockout.forget(trx, subjects[0]!)
        if (rehash) await passwordRepo.set(trx, { user_id: person.id, password_hash: rehash, change_required: person.change_required, updated: at })
        await sessionRepo.purgeEnded(trx, person.id, new Date(now.getTime() - ENDED_SESSIONS_KEPT_MILLISECONDS).toISOString())
        await sessionRepo.insert(trx, row)
        const actor = { type: 'USER' as const, organizationId: row.organization_id, userId: row.user_id, sessionId: row.id }
        await recordAuditEntry(trx, { actor, requestId: context.requestId, clientAddress: context.address }, { action: 'sign_in.succeeded', resourceType: SESSIONS, resourceId: row.id, after: toSessionSummary(row) })
        return describeSession(trx, row, token)
      })
      // A concurrent sign-in used the same code first.
      if (!session) return fail(WRONG_CODE)
      return { session, token }
    },
  }
}
