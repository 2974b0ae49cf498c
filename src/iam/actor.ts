import type { Permission } from './permissions.js'

/**
 * Who is calling: a user, their organization and role, whether they came with an access key or signed
 * in (a session). Every service call is made on behalf of one, and both credentials give the same Actor.
 */
export interface Actor {
  organizationId: string
  userId: string
  /** The credential the request came with — the access key's id, or the session's — and so the unit of the rate limit. */
  accessKeyId: string
  /** The session of a signed-in person; absent for an access key. */
  sessionId?: string
  roleId: string
  roleName: string
  /** Holds the organization Owner's rights (spec: Approval rules). */
  owner: boolean
  permissions: ReadonlySet<Permission>
  /** Signed in with a TOTP code (issue 11): only such a session approves where the organization requires it. Absent: no. */
  secondFactor?: boolean
}
