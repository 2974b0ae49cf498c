import { sql } from 'kysely'
import type { Executor } from '../../db/database.js'
import { isoAfter } from '../../shared/clock.js'
import {
  ACCOUNT_FAILURES_BEFORE_LOCKOUT,
  ADDRESS_FAILURES_BEFORE_LOCKOUT,
  FAILURES_FORGOTTEN_AFTER_MILLISECONDS,
  lockoutMilliseconds,
} from './session.policy.js'

/**
 * Failed sign-ins are counted per account (the email asked for, whether or not it exists, so that a
 * lockout says nothing about which emails are known) and per address. The counters live in the database,
 * so restarting the server or spreading requests over several processes does not reset them.
 */
export interface SignInSubject {
  kind: 'account' | 'address'
  key: string
}

export function signInSubjects(email: string, address: string): SignInSubject[] {
  return [{ kind: 'account', key: `account:${email}` }, addressSubject(address)]
}

/** An address alone: the OAuth2 token endpoint's failures count here too, as one more way to guess credentials. */
export function addressSubject(address: string): SignInSubject {
  return { kind: 'address', key: `address:${address}` }
}

const THRESHOLD = { account: ACCOUNT_FAILURES_BEFORE_LOCKOUT, address: ADDRESS_FAILURES_BEFORE_LOCKOUT }

export interface Lockout {
  subject: SignInSubject
  failures: number
  lockedUntil: string
}

export const signInLockout = {
  /** The latest lockout among the subjects still in force at `now`, if any. */
  async lockedUntil(db: Executor, subjects: readonly SignInSubject[], now: Date): Promise<string | undefined> {
    const row = await db
      .selectFrom('sign_in_failures')
      .select((eb) => eb.fn.max('locked_until').as('until'))
      .where('subject', 'in', subjects.map((subject) => subject.key))
      .where('locked_until', '>', now.toISOString())
      .executeTakeFirst()
    return row?.until ?? undefined
  },

  /**
   * Counts one failure against each subject (concurrent failures each count: the increment is one
   * statement), locking those that reach their threshold. The lockouts this failure started.
   */
  async recordFailure(trx: Executor, subjects: readonly SignInSubject[], now: Date): Promise<Lockout[]> {
    const at = now.toISOString()
    const forgottenBefore = new Date(now.getTime() - FAILURES_FORGOTTEN_AFTER_MILLISECONDS).toISOString()
    // Forgotten counters go, so that failures spread over many invented emails do not pile up rows.
    await trx
      .deleteFrom('sign_in_failures')
      .where('last_failure_at', '<', forgottenBefore)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
      .execute()
    const lockouts: Lockout[] = []
    for (const subject of subjects) {
      const { failures } = await trx
        .insertInto('sign_in_failures')
        .values({ subject: subject.key, failures: 1, last_failure_at: at, locked_until: null })
        .onConflict((oc) =>
          oc.column('subject').doUpdateSet({
            failures: sql<number>`case when sign_in_failures.last_failure_at < ${forgottenBefore} then 1 else sign_in_failures.failures + 1 end`,
            last_failure_at: at,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow()
      const lockout = lockoutMilliseconds(Number(failures), THRESHOLD[subject.kind])
      if (lockout === 0) continue
      const lockedUntil = isoAfter(lockout, now)
      await trx.updateTable('sign_in_failures').set({ locked_until: lockedUntil }).where('subject', '=', subject.key).execute()
      lockouts.push({ subject, failures: Number(failures), lockedUntil })
    }
    return lockouts
  },

  /** A successful sign-in forgets the account's failures (not the address's: one good password must not reset them). */
  async forget(trx: Executor, subject: SignInSubject): Promise<void> {
    await trx.deleteFrom('sign_in_failures').where('subject', '=', subject.key).execute()
  },
}
