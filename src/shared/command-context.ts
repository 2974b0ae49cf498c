import type { Transaction } from 'kysely'
import type { DatabaseSchema } from '../db/schema.js'
import type { Actor } from '../iam/actor.js'

export type Trx = Transaction<DatabaseSchema>

/**
 * What a service needs to change state on someone's behalf. `transaction` runs the work in one
 * database transaction; over HTTP it also stores the response for the request's Idempotency-Key
 * in that same transaction, so the value `work` returns must be the resource the client receives.
 * A command runs at most one transaction.
 */
export interface CommandContext {
  actor: Actor
  /** The request's `request-id` and the client's address, for the audit log (iam/audit-log); absent outside HTTP (the CLI). */
  requestId?: string
  clientAddress?: string
  transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T>
  /**
   * `value` as the client receives it, where `work` returns it: serialized by the route's response schema, and sent
   * (and stored for the Idempotency-Key) as these very bytes, so that an event of the same entity reuses them (issue
   * 14). Absent outside HTTP.
   */
  asSent?(value: object): string
  /**
   * Called inside `work` by a create that found the resource it describes already there and returns it instead of
   * making a second one (reference: an equivalent entity): over HTTP the answer, stored one included, is 200, not 201.
   */
  foundExisting?(): void
}
