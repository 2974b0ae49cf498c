/** Organizations and access (iam/). Column conventions: see ../schema.ts. */
import type { Generated } from 'kysely'

/**
 * Table shapes as Kysely sees them. Both backends store the same column types:
 * ids are UUID strings, times are ISO 8601 UTC strings (lexically ordered),
 * JSON documents are text, flags are 0/1 integers.
 */
export interface OrganizationsTable {
  id: string
  name: string
  environment: 'SANDBOX' | 'LIVE'
  created: string
  /** 1: approving a payment needs a session signed in with a TOTP code (issue 11); 0 by default. */
  approvals_require_second_factor: Generated<number>
}

export interface RolesTable {
  id: string
  organization_id: string
  name: string
  builtin: string | null
  owner: number
  permissions: string
  description: string | null
  version: number
  created: string
  updated: string
  deleted_at: string | null
}

export interface UsersTable {
  id: string
  organization_id: string
  kind: 'HUMAN' | 'PROGRAMMATIC'
  name: string
  email: string | null
  role_id: string
  version: number
  created: string
  updated: string
  deleted_at: string | null
  /** Set while the user is deactivated: their keys and sessions do not authenticate. */
  deactivated_at: string | null
}

export interface AccessKeysTable {
  id: string
  organization_id: string
  user_id: string
  access_key: string
  secret_hash: string
  created: string
  revoked_at: string | null
  /** When the key first authenticated a request (the audit log's access_keys.first_use); null until then. */
  first_used_at: string | null
}

/** The password of a HUMAN user: a scrypt hash with its parameters and salt (see iam/passwords). */
export interface UserPasswordsTable {
  user_id: string
  password_hash: string
  /** 1: a one-time password; the user's sessions may do nothing but set a new one. */
  change_required: number
  updated: string
}

/** A user's TOTP secret (RFC 6238): unconfirmed until a first code is given, then asked for at sign-in. */
export interface UserTotpTable {
  user_id: string
  /** Base32; needed in clear to compute the codes. */
  secret: string
  confirmed_at: string | null
  /** The last time step a code was accepted for: a code is never accepted twice. */
  last_used_step: number
  created: string
}

/** A signed-in person's session: only a SHA-256 digest of the cookie's token is kept. */
export interface SessionsTable {
  id: string
  organization_id: string
  user_id: string
  token_digest: string
  /** 1: signed in with a TOTP code. */
  second_factor: number
  user_agent: string | null
  address: string
  created: string
  last_seen_at: string
  expires_at: string
  revoked_at: string | null
}

/** Consecutive failed sign-ins per subject (`account:EMAIL` or `address:IP`) and the lockout they caused. */
export interface SignInFailuresTable {
  subject: string
  failures: number
  last_failure_at: string
  locked_until: string | null
}

/** A bearer token issued to an access key (OAuth2 client credentials): only its SHA-256 digest is kept. */
export interface OAuth2AccessTokensTable {
  token_digest: string
  access_key_id: string
  created: string
  expires_at: string
}

/**
 * One entry of the audit log (iam/audit-log): append-only, the database refuses UPDATE and DELETE.
 * `before` and `after` are JSON documents of the resource as the API shows it, secrets redacted.
 */
export interface AuditLogEntriesTable {
  id: string
  organization_id: string
  created: string
  actor_type: 'USER' | 'ACCESS_KEY' | 'SYSTEM'
  actor_user_id: string | null
  actor_access_key_id: string | null
  actor_session_id: string | null
  action: string
  resource_type: string
  resource_id: string
  request_id: string | null
  client_address: string | null
  before: string | null
  after: string | null
}
