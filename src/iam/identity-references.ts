import type { Executor } from '../db/database.js'

/**
 * What else names a user or a role, asked before either is deleted: a narrow port, so that IAM knows
 * nothing of the domains that refer to its identities. Today that is payments' approval chains (as
 * creators' roles, required roles and named approvers); the composition root (src/app.ts) passes them in.
 */
export interface IdentityReferences {
  /** A noun for what refers ("approval chain"), used in the 409 that names them. */
  readonly referrer: string
  /** The names of the live referrers of the user or role `id`, in the caller's transaction; empty when none. */
  namesReferencing(db: Executor, organizationId: string, id: string): Promise<string[]>
}
