import type { Executor } from '../../db/database.js'
import type { SessionsTable } from '../../db/schema.js'
import { ApiError } from '../../http/errors.js'
import type { Actor } from '../actor.js'
import { organizationSettings } from '../organization-settings.js'
import { passwordRepo } from '../passwords/password.repo.js'
import { totpRepo } from '../totp/totp.repo.js'
import { toUser } from '../users/user.repo.js'
import { loadUser, roleOf } from '../users/user.service.js'
import { csrfTokenOf } from './session-cookie.js'
import { idleExpiresOf, sessionRepo } from './session.repo.js'
import type { Session } from './session.schemas.js'

/** The session a request's Actor signed in with. @throws ApiError not_found (404) for an access key's request. */
export function requireSession(actor: Actor): string {
  if (actor.sessionId === undefined) {
    throw new ApiError('not_found', 'This request authenticated with an access key, which has no session: sign in with POST /iam/v2/session')
  }
  return actor.sessionId
}

/** The session as its person sees it: who they are, their role's rights, and the CSRF token computed from `token`. */
export async function describeSession(db: Executor, row: SessionsTable, token: string): Promise<Session> {
  const user = await loadUser(db, row.organization_id, row.user_id)
  const role = await roleOf(db, user)
  const [password, totp, approvalsRequireSecondFactor] = await Promise.all([
    passwordRepo.find(db, user.id),
    totpRepo.find(db, user.id),
    organizationSettings.approvalsRequireSecondFactor(db, row.organization_id),
  ])
  return {
    id: row.id,
    organizationId: row.organization_id,
    user: toUser(user),
    role: { id: role.id, name: role.name, owner: role.owner === 1 },
    permissions: JSON.parse(role.permissions) as string[],
    csrfToken: csrfTokenOf(token),
    secondFactor: row.second_factor === 1,
    totpEnabled: totp?.confirmed_at != null,
    passwordChangeRequired: password?.change_required === 1,
    approvalsRequireSecondFactor,
    created: row.created,
    lastSeen: row.last_seen_at,
    expires: row.expires_at,
    idleExpires: idleExpiresOf(row),
  }
}

/** The Actor's own session row. @throws ApiError not_found (404) for an access key's request. */
export async function ownSession(db: Executor, actor: Actor): Promise<SessionsTable> {
  const row = await sessionRepo.find(db, actor.userId, requireSession(actor))
  if (!row) throw new Error(`The authenticated session ${actor.sessionId} is missing`)
  return row
}
