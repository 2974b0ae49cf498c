/**
 * How long sessions live and when sign-in locks out: the constants the README documents (Signing in).
 */

/** A session unused for this long has ended (OWASP Session Management: 15–30 minutes for sensitive applications). */
export const SESSION_IDLE_TIMEOUT_MILLISECONDS = 30 * 60 * 1000
/** Every session ends this long after sign-in, however busy: a working day. */
export const SESSION_LIFETIME_MILLISECONDS = 12 * 60 * 60 * 1000
/** last_seen_at is written at most this often, so a busy page costs one write a minute, not one per request. */
export const LAST_SEEN_RESOLUTION_MILLISECONDS = 60 * 1000

/** Ended sessions are kept this long (who signed in from where, for a while), then deleted at the user's next sign-in. */
export const ENDED_SESSIONS_KEPT_MILLISECONDS = 30 * 24 * 60 * 60 * 1000

/** Consecutive failed sign-ins for one email before it locks. */
export const ACCOUNT_FAILURES_BEFORE_LOCKOUT = 5
/** Consecutive failed sign-ins from one address before it locks: higher, as an office shares one address. */
export const ADDRESS_FAILURES_BEFORE_LOCKOUT = 20
/** The first lockout; each further failure doubles it, up to LOCKOUT_MAX_MILLISECONDS. */
export const LOCKOUT_BASE_MILLISECONDS = 30 * 1000
export const LOCKOUT_MAX_MILLISECONDS = 15 * 60 * 1000
/** A subject with no failure for this long starts counting again from zero. */
export const FAILURES_FORGOTTEN_AFTER_MILLISECONDS = 60 * 60 * 1000

/** The lockout after the `failures`-th consecutive failure, or 0 below the threshold: 30 s, 1 min, 2 min, … 15 min. */
export function lockoutMilliseconds(failures: number, threshold: number): number {
  if (failures < threshold) return 0
  return Math.min(LOCKOUT_BASE_MILLISECONDS * 2 ** (failures - threshold), LOCKOUT_MAX_MILLISECONDS)
}
