import { Type, type Static } from 'typebox'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { Etag, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'

/** A person (named, with an email), or a system integration (programmatic access). */
export const USER_TYPES = ['HUMAN', 'PROGRAMMATIC'] as const
export type UserType = (typeof USER_TYPES)[number]

/** A DEACTIVATED user's keys and sessions do not authenticate and they cannot sign in, until reactivated. */
export const USER_STATUSES = ['ACTIVE', 'DEACTIVATED'] as const

const UserName = Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$' })
const Email = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'Required for HUMAN users, absent for PROGRAMMATIC ones; unique among the live users of the organization (stored lower-case)',
})

/** reference §2.14: one user holds one role at a time; its access keys authenticate it. */
export const User = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  type: Type.Enum([...USER_TYPES]),
  name: Type.String(),
  email: Type.Optional(Type.String()),
  roleId: ResourceId,
  status: Type.Enum([...USER_STATUSES]),
  /** When the user was deactivated; present only while DEACTIVATED. */
  deactivated: Type.Optional(Timestamp),
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type User = Static<typeof User>

export const CreateUser = Type.Object(
  { type: Type.Enum([...USER_TYPES]), name: UserName, email: Type.Optional(Email), roleId: ResourceId },
  {
    additionalProperties: false,
    examples: [{ type: 'PROGRAMMATIC', name: 'ERP integration', roleId: '0197a3b0-2c4d-7e5f-9a6b-7c8d9e0f1a2b' }],
  },
)
export type CreateUser = Static<typeof CreateUser>

export const UserListQuery = Type.Object({
  ...ListQueryProperties,
  type: Type.Optional(Type.Enum([...USER_TYPES])),
  roleId: Type.Optional(ResourceId),
})
export type UserListQuery = Static<typeof UserListQuery>

/** The fields PATCH may touch; the patched result is validated against this shape. */
export const UserEditable = Type.Object(
  { name: UserName, email: Type.Optional(Email), roleId: ResourceId },
  { additionalProperties: false },
)
export type UserEditable = Static<typeof UserEditable>

export const USER_PATCH_RULES: readonly PatchRule[] = [
  { op: 'replace', path: '/name' },
  { op: 'replace', path: '/roleId' },
  { op: 'replace', path: '/email' },
]

/** The PATCH body: a JSON Patch within USER_PATCH_RULES. */
export const UserPatchBody = {
  ...JsonPatchBody,
  examples: [[{ op: 'replace', path: '/roleId', value: '0197a3b0-2c4d-7e5f-9a6b-7c8d9e0f1a2b' }]],
}
