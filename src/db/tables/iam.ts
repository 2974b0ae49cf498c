/** Organizations and access (iam/). Column conventions: see ../schema.ts. */

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
}

export interface AccessKeysTable {
  id: string
  organization_id: string
  user_id: string
  access_key: string
  secret_hash: string
  created: string
  revoked_at: string | null
}
