import { Type, type Static } from 'typebox'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { Etag, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'
import { PERMISSIONS } from '../permissions.js'

// `type` lets AJV check uniqueItems with a hash instead of comparing every pair (see validation.ts).
export const PermissionName = Type.Enum([...PERMISSIONS], { type: 'string', description: 'A resource:action scope' })

const RoleName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^\\S(.*\\S)?$',
  description: 'Unique among the live roles of the organization; no leading or trailing spaces',
})
const Description = Type.String({ minLength: 1, maxLength: 500 })
const Permissions = Type.Array(PermissionName, { uniqueItems: true, maxItems: PERMISSIONS.length })

/** reference §2.14: a named set of permissions. Built-in roles (owner, admin, read-only) are read-only. */
export const Role = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  name: Type.String(),
  description: Type.Optional(Type.String()),
  builtin: Type.Boolean({ description: 'One of the built-in roles every organization has; these cannot be changed or deleted' }),
  owner: Type.Boolean({ description: "Holds the Owner's rights: approves payments no approval chain covers" }),
  permissions: Type.Array(PermissionName),
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type Role = Static<typeof Role>

export const CreateRole = Type.Object(
  { name: RoleName, permissions: Permissions, description: Type.Optional(Description) },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Payment approver',
        permissions: ['accounts:read', 'counterparties:read', 'credit_transfers:read', 'credit_transfers:approve'],
        description: 'Reviews and approves outgoing payments',
      },
    ],
  },
)
export type CreateRole = Static<typeof CreateRole>

export const RoleListQuery = Type.Object(ListQueryProperties)
export type RoleListQuery = Static<typeof RoleListQuery>

/** The fields PATCH may touch; the patched result is validated against this shape. */
export const RoleEditable = CreateRole
export type RoleEditable = CreateRole

export const ROLE_PATCH_RULES: readonly PatchRule[] = [
  { op: 'replace', path: '/name' },
  { op: 'replace', path: '/permissions' },
  { op: 'add', path: '/permissions/*' },
  { op: 'remove', path: '/permissions/*' },
  { op: 'add', path: '/description' },
  { op: 'replace', path: '/description' },
  { op: 'remove', path: '/description' },
]

/** The PATCH body: a JSON Patch within ROLE_PATCH_RULES. */
export const RolePatchBody = {
  ...JsonPatchBody,
  examples: [[{ op: 'add', path: '/permissions/-', value: 'direct_debits:approve' }]],
}
