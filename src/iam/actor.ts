import type { Permission } from './permissions.js'

/** Who is calling: the access key's user, their organization and role. Every service call is made on behalf of one. */
export interface Actor {
  organizationId: string
  userId: string
  accessKeyId: string
  roleId: string
  roleName: string
  /** Holds the organization Owner's rights (spec: Approval rules). */
  owner: boolean
  permissions: ReadonlySet<Permission>
}
