import { randomUUID } from 'node:crypto'
import type { Executor } from '../db/database.js'
import { ApiError } from '../http/errors.js'
import { isoAfter, nowIso } from '../shared/clock.js'
import { idempotencyRepo, type KeyScope } from './idempotency.repo.js'

/** spec: Idempotency rules 3 — a key expires 24 hours after its first use. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000

export type Claim =
  | { outcome: 'claimed'; key: HeldKey }
  | { outcome: 'replay'; status: number; body: string }
  | { outcome: 'in_progress' }
  | { outcome: 'mismatch' }

/** A key this request holds: its response is stored on completion, or the key released after a 5xx. */
export class HeldKey {
  completed = false

  constructor(
    private readonly scope: KeyScope,
    private readonly lockToken: string,
  ) {}

  /**
   * Stores the response in the caller's transaction, beside the change it reports.
   * @throws ApiError conflict when the lock lapsed and another request took the key over; the work rolls back.
   */
  async complete(db: Executor, status: number, body: string): Promise<void> {
    if (this.completed) return
    const stored = await idempotencyRepo.complete(db, this.scope, this.lockToken, status, body)
    if (!stored) throw new ApiError('conflict', 'The Idempotency-Key was taken over by a retry while this request ran')
    this.completed = true
  }

  /** The transaction `complete` wrote in did not commit, so nothing is stored yet. */
  rolledBack(): void {
    this.completed = false
  }

  /** Frees the key so a retry can run again (spec: a 5xx is not stored). */
  async release(db: Executor): Promise<void> {
    await idempotencyRepo.release(db, this.scope, this.lockToken)
  }
}

/**
 * Claims an Idempotency-Key for a request. The table's primary key settles races between
 * concurrent requests and server processes: exactly one insert wins, the others read its row.
 * A holder that died leaves a lease that lapses after `leaseMs`; the next request takes the key over.
 * Nothing committed can be lost that way: a change and its stored response commit together.
 */
export async function claimKey(db: Executor, scope: KeyScope, fingerprint: string, leaseMs: number): Promise<Claim> {
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
    if (inserted) return { outcome: 'claimed', key: new HeldKey(scope, lockToken) }

    const existing = await idempotencyRepo.find(db, scope)
    if (!existing) continue
    if (existing.expires_at <= nowText) {
      await idempotencyRepo.deleteExpired(db, scope, nowText)
      continue
    }
    if (existing.fingerprint !== fingerprint) return { outcome: 'mismatch' }
    if (existing.state === 'COMPLETED') {
      return { outcome: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' }
    }
    if (existing.locked_until > nowText) return { outcome: 'in_progress' }
    if (await idempotencyRepo.takeOverStale(db, scope, nowText, lockToken, lockedUntil)) {
      return { outcome: 'claimed', key: new HeldKey(scope, lockToken) }
    }
  }
  return { outcome: 'in_progress' }
}

export function purgeExpiredKeys(db: Executor): Promise<number> {
  return idempotencyRepo.purgeExpired(db, nowIso())
}
