import { randomUUID } from 'node:crypto'
import { lockTaken, transactionLockStatement } from '../db/claims.js'
import type { Database, Dialect, Executor } from '../db/database.js'
import { sendAhead } from '../db/prepared-query.js'
import { ApiError } from '../http/errors.js'
import { StoredAnswer } from '../http/stored-answer.js'
import { isoAfter, nowIso } from '../shared/clock.js'
import type { IdempotencyKeysTable } from '../db/schema.js'
import { idempotencyRepo, type KeyScope } from './idempotency.repo.js'

/** spec: Idempotency rules 3 — a key expires 24 hours after its first use. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000

/** What a request finds under its key before it runs. */
export type Lookup =
  | { outcome: 'absent' }
  | { outcome: 'replay'; status: number; body: string }
  | { outcome: 'in_progress' }
  | { outcome: 'mismatch' }

/** spec: Idempotency rules 4 — 425 while the key's first request still runs. */
export function keyInUse(): ApiError {
  return new ApiError('idempotency_key_in_use', undefined, undefined, { 'Retry-After': '1' })
}

/** A key's scope: one organization, method, path and key, named once (a request asks for the name thrice). */
export function keyScope(organizationId: string, method: string, path: string, key: string): KeyScope {
  return { organizationId, method, path, key, name: JSON.stringify([organizationId, method, path, key]) }
}

/** A key a request holds while it runs: its answer is stored once, with the work it reports where there is a transaction. */
export interface HeldKey {
  readonly scope: KeyScope
  readonly completed: boolean
  /**
   * At the start of the request's transaction: sends the key's checks ahead of the work's statements (on PostgreSQL
   * they go out with the work's first reads, one round trip) and returns without their answers. The transaction
   * awaits `held()` before it stores the work's answer, and before it reports the work's failure.
   */
  enter(trx: Executor): Promise<KeyEntry>
  /** Stores the answer in the caller's transaction (or on `db` itself), beside the change it reports. */
  complete(db: Executor, status: number, body: string): Promise<void>
  /** The transaction `complete` wrote in did not commit, so nothing is stored yet. */
  rolledBack(): void
  /** The answer was sent without being stored inside a transaction: stores it now, unless a 5xx (spec: not stored). */
  settle(database: Database, status: number, body: string): Promise<void>
}

/** A key's checks, sent (HeldKey.enter). */
export interface KeyEntry {
  /** Resolves once the key is this request's. @throws ApiError idempotency_key_in_use (425): another request has it. */
  held(): Promise<void>
}

/** What answers a request whose key was found: the stored answer again (a replay), a 422 or a 425. */
export function answerOfKey(found: Exclude<Lookup, { outcome: 'absent' }>): StoredAnswer | ApiError {
  switch (found.outcome) {
    case 'replay':
      return new StoredAnswer(found.status, found.body)
    case 'in_progress':
      return keyInUse()
    case 'mismatch':
      return new ApiError('idempotency_key_reused')
  }
}

/** A row's replay, or why there is none; nothing is written (an expired key counts as absent). */
export async function lookUpKey(db: Executor, scope: KeyScope, fingerprint: string, now = nowIso()): Promise<Lookup> {
  return lookupOf(await idempotencyRepo.find(db, scope), fingerprint, now)
}

/** What a key's row (if any) means for a request with `fingerprint`: absent when there is none, or it no longer counts. */
function lookupOf(existing: IdempotencyKeysTable | undefined, fingerprint: string, now: string): Lookup {
  if (!existing || existing.expires_at <= now) return { outcome: 'absent' }
  if (existing.fingerprint !== fingerprint) return { outcome: 'mismatch' }
  if (existing.state === 'COMPLETED') return { outcome: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' }
  return existing.locked_until > now ? { outcome: 'in_progress' } : { outcome: 'absent' }
}

/**
 * The key's row once this transaction holds the key's lock, or 'locked' when another holds it: the lock and the read
 * are sent together, ahead of the work's statements (sendAhead); a read beside a lock not taken is ignored.
 */
async function lockedKeyRow(trx: Executor, dialect: Dialect, scope: KeyScope): Promise<{ row: Promise<IdempotencyKeysTable | undefined | 'locked'> }> {
  const read = idempotencyRepo.findStatement(trx, scope)
  const lock = transactionLockStatement(trx, dialect, scope.name)
  if (!lock) {
    const { answers } = await sendAhead(trx, [read])
    return { row: answers.then(([found]) => found.rows[0]) }
  }
  const { answers } = await sendAhead(trx, [lock, read])
  return { row: answers.then(([locked, found]) => (lockTaken(locked.rows) ? found.rows[0] : 'locked')) }
}

/**
 * The usual key (issue 14: one write transaction per request): nothing is written while the request runs; its
 * answer is inserted, completed, in the transaction of the work it reports. Requests of this process with the same
 * key were turned away before it started (the hooks' in-flight set); another process's is kept out by the lock
 * `enter` takes — PostgreSQL's advisory lock on the key, SQLite's one writer — and by the row it finds once it has
 * the lock. A crash leaves nothing behind: the retry runs at once.
 */
export class TransactionalKey implements HeldKey {
  completed = false
  /** `enter` found the key taken: the 425 it answers is not the key's answer. */
  private yielded = false

  constructor(
    readonly scope: KeyScope,
    private readonly fingerprint: string,
    private readonly dialect: Dialect,
  ) {}

  async enter(trx: Executor): Promise<KeyEntry> {
    const now = nowIso()
    const { row } = await lockedKeyRow(trx, this.dialect, this.scope)
    const held = row.then(async (existing) => {
      const found = existing === 'locked' ? ({ outcome: 'in_progress' } as const) : lookupOf(existing, this.fingerprint, now)
      if (found.outcome !== 'absent') {
        // Another request holds the key (425), or answered it (a replay, or 422 for another request's key): not
        // looked up before the transaction ('transaction' routes), or answered since by another process.
        this.yielded = true
        throw answerOfKey(found)
      }
      // A row that no longer counts (expired, or an earlier version's claim whose process died) makes way.
      if (existing) await idempotencyRepo.deleteDead(trx, this.scope, now)
    })
    // Awaited by the transaction (held()); a failure before then is not unhandled.
    held.catch(() => undefined)
    return { held: () => held }
  }

  async complete(db: Executor, status: number, body: string): Promise<void> {
    if (this.completed) return
    const now = nowIso()
    await idempotencyRepo.insertCompleted(db, {
      organization_id: this.scope.organizationId,
      method: this.scope.method,
      path: this.scope.path,
      key: this.scope.key,
      fingerprint: this.fingerprint,
      state: 'COMPLETED',
      lock_token: '',
      locked_until: now,
      response_status: status,
      response_body: body,
      created: now,
      expires_at: isoAfter(KEY_LIFETIME_MS),
    })
    this.completed = true
  }

  rolledBack(): void {
    this.completed = false
  }

  async settle(database: Database, status: number, body: string): Promise<void> {
    if (this.completed || this.yielded || status >= 500) return
    await database.transaction(async (trx) => {
      await (await this.enter(trx)).held()
      await this.complete(trx, status, body)
    }).catch((error: unknown) => {
      // `enter` found the key held or answered by another request meanwhile (yielded): its answer is the one kept.
      if (!this.yielded) throw error
    })
  }
}

const CLAIMED: KeyEntry = { held: async () => undefined }

/**
 * The key of a route whose work is not one transaction (`config.idempotency: 'claim'`, the test endpoint's sleep):
 * claimed by a row of its own before the work, which other processes see, with a lease that lapses if the holder's
 * process dies. The table's primary key settles races: exactly one insert wins, the others read its row.
 */
export class ClaimedKey implements HeldKey {
  completed = false

  private constructor(
    readonly scope: KeyScope,
    private readonly lockToken: string,
  ) {}

  /** The key claimed for this request, or why not. */
  static async claim(db: Executor, scope: KeyScope, fingerprint: string, leaseMs: number): Promise<ClaimedKey | Exclude<Lookup, { outcome: 'absent' }>> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const now = new Date()
      const nowText = now.toISOString()
      const lockToken = randomUUID()
      const lockedUntil = isoAfter(leaseMs, now)
      const inserted = await idempotencyRepo.insertIfAbsent(db, {
        organization_id: scope.organizationId,
        method: scope.method,
        path: scope.path,
        key: scope.key,
        fingerprint,
        state: 'IN_PROGRESS',
        lock_token: lockToken,
        locked_until: lockedUntil,
        response_status: null,
        response_body: null,
        created: nowText,
        expires_at: isoAfter(KEY_LIFETIME_MS, now),
      })
      if (inserted) return new ClaimedKey(scope, lockToken)
      const found = await lookUpKey(db, scope, fingerprint, nowText)
      if (found.outcome !== 'absent') return found
      await idempotencyRepo.deleteExpired(db, scope, nowText)
      if (await idempotencyRepo.takeOverStale(db, scope, nowText, lockToken, lockedUntil)) return new ClaimedKey(scope, lockToken)
    }
    return { outcome: 'in_progress' }
  }

  /** The key was claimed by its own row before the request ran: nothing to check in the transaction. */
  async enter(): Promise<KeyEntry> {
    return CLAIMED
  }

  /** @throws ApiError conflict when the lease lapsed and another request took the key over; the work rolls back. */
  async complete(db: Executor, status: number, body: string): Promise<void> {
    if (this.completed) return
    const stored = await idempotencyRepo.complete(db, this.scope, this.lockToken, status, body)
    if (!stored) throw new ApiError('conflict', 'The Idempotency-Key was taken over by a retry while this request ran')
    this.completed = true
  }

  rolledBack(): void {
    this.completed = false
  }

  async settle(database: Database, status: number, body: string): Promise<void> {
    if (this.completed) return
    // spec: a 5xx is not stored, so the key is freed for the retry.
    if (status >= 500) await idempotencyRepo.release(database.db, this.scope, this.lockToken)
    else await this.complete(database.db, status, body)
  }
}

export function purgeExpiredKeys(db: Executor): Promise<number> {
  return idempotencyRepo.purgeExpired(db, nowIso())
}
