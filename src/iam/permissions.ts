/**
 * Permissions are `resource:action` scopes, named as in the reference (§2.14).
 * Every API route declares the one it needs; a role is a set of them.
 */
export const PERMISSIONS = [
  'accounts:read',
  'accounts:create',
  'accounts:update',
  'entities:read',
  'entities:create',
  'entities:update',
  'entities:delete',
  'account_balances:read',
  'transactions:read',
  'transactions:update',
  'statements:create',
  'counterparties:read',
  'counterparties:create',
  'counterparties:update',
  'counterparties:delete',
  'external_accounts:read',
  'external_accounts:create',
  'external_accounts:update',
  'external_accounts:delete',
  'credit_transfers:read',
  'credit_transfers:create',
  'credit_transfers:update',
  'credit_transfers:approve',
  'direct_debits:read',
  'direct_debits:create',
  'direct_debits:update',
  'direct_debits:approve',
  'mandates:read',
  'mandates:create',
  'mandates:update',
  'webhooks:read',
  'webhooks:create',
  'webhooks:update',
  'webhooks:delete',
  'users:read',
  'users:create',
  'users:update',
  'users:delete',
  'roles:read',
  'roles:create',
  'roles:update',
  'roles:delete',
  'audit_log:read',
  'approval_chains:read',
  'approval_chains:create',
  'approval_chains:update',
  'approval_chains:delete',
  'sandbox:update',
  'connections:read',
  'connections:create',
  'connections:update',
  'connections:delete',
] as const

export type Permission = (typeof PERMISSIONS)[number]

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value)
}

export const BUILTIN_ROLE_NAMES = ['owner', 'admin', 'read-only'] as const
export type BuiltinRoleName = (typeof BUILTIN_ROLE_NAMES)[number]

interface BuiltinRole {
  name: BuiltinRoleName
  /** The Owner approves payments no chain covers (spec: Approval rules). */
  owner: boolean
  permissions: readonly Permission[]
}

/** owner: everything; admin: everything, but not the Owner's approvals; read-only: every read. */
export const BUILTIN_ROLES: readonly BuiltinRole[] = [
  { name: 'owner', owner: true, permissions: PERMISSIONS },
  { name: 'admin', owner: false, permissions: PERMISSIONS },
  { name: 'read-only', owner: false, permissions: PERMISSIONS.filter((p) => p.endsWith(':read')) },
]

export function isBuiltinRoleName(value: string): value is BuiltinRoleName {
  return (BUILTIN_ROLE_NAMES as readonly string[]).includes(value)
}
