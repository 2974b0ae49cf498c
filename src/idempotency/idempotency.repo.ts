import type { CompiledQuery } from 'kysely'
import type { Executor } from '../db/database.js'
import { preparedInsert, preparedQuery } from '../db/prepared-query.js'
import type { IdempotencyKeysTable } from '../db/schema.js'

export interface KeyScope {
  organizationId: string
  method: string
  path: string
  key: string
  /** The four as one string (idempotency-key.ts keyScope): the key's lock, and its entry among the requests in flight. */
  name: string
}

function scopeColumns(scope: KeyScope) {
  return { organization_id: scope.organizationId, method: scope.method, path: scope.path, key: scope.key }
}

// Every request with a key reads it, and every write with a key inserts its answer: compiled once (issue 14).
const keyRow = preparedQuery((db, parameter: (name: Exclude<keyof KeyScope, 'name'>) => string) =>
  db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('organization_id', '=', parameter('organizationId'))
    .where('method', '=', parameter('method'))
    .where('path', '=', parameter('path'))
    .where('key', '=', parameter('key')),
)
// The answer is the transaction's last write: on PostgreSQL it goes out with the COMMIT (answeredWithNext).
const insertKey = preparedInsert('idempotency_keys', { answeredWithNext: true })

export const idempotencyRepo = {
  /** Inserts the key unless it exists; true when this call inserted it. The primary key decides races. */
  async insertIfAbsent(db: Executor, row: IdempotencyKeysTable): Promise<boolean> {
    const result = await db
      .insertInto('idempotency_keys')
      .values(row)
      .onConflict((conflict) => conflict.columns(['organization_id', 'method', 'path', 'key']).doNothing())
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
  },

  /** The answer of a key that ran in one transaction, written in it (idempotency-key.ts TransactionalKey). */
  async insertCompleted(trx: Executor, row: IdempotencyKeysTable): Promise<void> {
    await insertKey(trx, row)
  },

  async find(db: Executor, scope: KeyScope): Promise<IdempotencyKeysTable | undefined> {
    return (await keyRow(db, scope))[0]
  },

  /** find as a statement to run with others (runTogether); its first row is the key's. */
  findStatement(db: Executor, scope: KeyScope): CompiledQuery<IdempotencyKeysTable> {
    return keyRow.bind(db, scope)
  },

  async deleteExpired(db: Executor, scope: KeyScope, now: string): Promise<void> {
    await db.deleteFrom('idempotency_keys').where((eb) => eb.and(scopeColumns(scope))).where('expires_at', '<=', now).execute()
  },

  /** Deletes the key's row if it no longer counts: expired, or claimed by a holder whose lease lapsed (its process died). */
  async deleteDead(trx: Executor, scope: KeyScope, now: string): Promise<void> {
    await trx
      .deleteFrom('idempotency_keys')
      .where((eb) => eb.and(scopeColumns(scope)))
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb.and([eb('state', '=', 'IN_PROGRESS'), eb('locked_until', '<=', now)])]))
      .execute()
  },

  /** Takes over a key whose holder stopped renewing it (its process died); true when taken. */
  async takeOverStale(db: Executor, scope: KeyScope, now: string, lockToken: string, lockedUntil: string): Promise<boolean> {
    const result = await db.updateTable('idempotency_keys').where((eb) => eb.and(scopeColumns(scope)))
      .set({ lock_token: lockToken, locked_until: lockedUntil })
      .where('state', '=', 'IN_PROGRESS')
      .where('locked_until', '<=', now)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /** Stores the response; false when the lock was lost to another request in the meantime. */
  async complete(db: Executor, scope: KeyScope, lockToken: string, status: number, body: string): Promise<boolean> {
    const result = await db.updateTable('idempotency_keys').where((eb) => eb.and(scopeColumns(scope)))
      .set({ state: 'COMPLETED', response_status: status, response_body: body })
      .where('state', '=', 'IN_PROGRESS')
      .where('lock_token', '=', lockToken)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  async release(db: Executor, scope: KeyScope, lockToken: string): Promise<void> {
    await db.deleteFrom('idempotency_keys').where((eb) => eb.and(scopeColumns(scope)))
      .where('state', '=', 'IN_PROGRESS')
      .where('lock_token', '=', lockToken)
      .execute()
  },

  async purgeExpired(db: Executor, now: string): Promise<number> {
    const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst()
    return Number(result.numDeletedRows)
  },
}
