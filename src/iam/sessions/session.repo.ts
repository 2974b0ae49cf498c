import type { Executor } from '../../db/database.js'
import type { SessionsTable } from '../../db/schema.js'
import { preparedQuery } from '../../db/prepared-query.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { isoAfter } from '../../shared/clock.js'
import { SESSION_IDLE_TIMEOUT_MILLISECONDS } from './session.policy.js'
import type { SessionSummary } from './session.schemas.js'

/** What authenticating a session needs, in one indexed read. */
export interface SessionGrant {
  sessionId: string
  organizationId: string
  userId: string
  secondFactor: number
  lastSeenAt: string
  expiresAt: string
  roleId: string
  roleName: string
  owner: number
  permissions: string
  passwordChangeRequired: number | null
}

/** The earlier of the absolute expiry and the end of the idle time. */
export function idleExpiresOf(row: Pick<SessionsTable, 'last_seen_at' | 'expires_at'>): string {
  const idle = isoAfter(SESSION_IDLE_TIMEOUT_MILLISECONDS, new Date(row.last_seen_at))
  return idle < row.expires_at ? idle : row.expires_at
}

export function toSessionSummary(row: SessionsTable): SessionSummary {
  return {
    id: row.id,
    userId: row.user_id,
    secondFactor: row.second_factor === 1,
    ...(row.user_agent !== null ? { userAgent: row.user_agent } : {}),
    address: row.address,
    created: row.created,
    lastSeen: row.last_seen_at,
    expires: row.expires_at,
    idleExpires: idleExpiresOf(row),
  }
}

/** Live at `now`: not revoked, not past its absolute expiry, used within the idle timeout. */
function live(now: Date) {
  const idleSince = new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MILLISECONDS).toISOString()
  return { now: now.toISOString(), idleSince }
}

/**
 * The session behind a cookie, read on every request made with one: compiled once, and outside a
 * transaction run on the read path (SQLite's read connection), so it never waits behind a long write.
 */
const grantOf = preparedQuery((db, parameter: (name: 'tokenDigest' | 'at' | 'idleSince') => string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .leftJoin('user_passwords as p', 'p.user_id', 's.user_id')
    .select([
      's.id as sessionId',
      's.organization_id as organizationId',
      's.user_id as userId',
      's.second_factor as secondFactor',
      's.last_seen_at as lastSeenAt',
      's.expires_at as expiresAt',
      'r.id as roleId',
      'r.name as roleName',
      'r.owner as owner',
      'r.permissions as permissions',
      'p.change_required as passwordChangeRequired',
    ])
    .where('s.token_digest', '=', parameter('tokenDigest'))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', parameter('at'))
    .where('s.last_seen_at', '>', parameter('idleSince'))
    .where('u.deleted_at', 'is', null)
    .where('u.deactivated_at', 'is', null),
)

export const sessionRepo = {
  async insert(trx: Executor, row: SessionsTable): Promise<void> {
    await trx.insertInto('sessions').values(row).execute()
  },

  /** The live session with this token digest, with its user's current role; undefined when there is none. */
  async findGrant(db: Executor, tokenDigest: string, now: Date): Promise<SessionGrant | undefined> {
    const { now: at, idleSince } = live(now)
    return (await grantOf(db, { tokenDigest, at, idleSince }))[0]
  },

  async find(db: Executor, userId: string, id: string): Promise<SessionsTable | undefined> {
    return db.selectFrom('sessions').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
  },

  /** Records use; a no-op on an ended session. */
  async touch(db: Executor, id: string, now: string): Promise<void> {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute()
  },

  async markSecondFactor(trx: Executor, id: string): Promise<void> {
    await trx.updateTable('sessions').set({ second_factor: 1 }).where('id', '=', id).execute()
  },

  /** A user's live sessions, oldest first; fetches `limit + 1` rows for the pager. */
  async listLive(db: Executor, userId: string, page: PageRequest, now: Date): Promise<SessionsTable[]> {
    const { now: at, idleSince } = live(now)
    let query = db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .where('last_seen_at', '>', idleSince)
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },

  /** Ends one session; false when it had already been revoked. */
  async revoke(trx: Executor, id: string, now: string): Promise<boolean> {
    const result = await trx.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Deletes a user's sessions that ended before `before`: the list shows live sessions only, and rows need not pile up. */
  async purgeEnded(trx: Executor, userId: string, before: string): Promise<void> {
    await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
      .execute()
  },

  /** Ends every session of a user but `keep` (the one changing the password, if any). */
  async revokeAllOf(trx: Executor, userId: string, now: string, keep?: string): Promise<void> {
    let query = trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null)
    if (keep !== undefined) query = query.where('id', '!=', keep)
    await query.execute()
  },
}
