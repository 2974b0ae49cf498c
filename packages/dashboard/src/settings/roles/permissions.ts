import type { Permission } from '../types'

/** A resource's permissions, as the role form groups them: "Credit transfers" with read, create, approve… */
export interface PermissionGroup {
  resource: string
  label: string
  permissions: { permission: Permission; action: string }[]
}

const words = (name: string) => {
  const spaced = name.replace(/_/g, ' ')
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

/** "credit_transfers:approve" as a person says it: "Approve credit transfers". */
export function permissionLabel(permission: Permission): string {
  const [resource = '', action = ''] = permission.split(':')
  return `${words(action)} ${resource.replace(/_/g, ' ')}`
}

/** Permissions grouped by resource (spec: permissions are resource:action scopes), in the order given. */
export function permissionGroups(permissions: readonly Permission[]): PermissionGroup[] {
  const groups = new Map<string, PermissionGroup>()
  for (const permission of permissions) {
    const [resource = '', action = ''] = permission.split(':')
    const group = groups.get(resource) ?? { resource, label: words(resource), permissions: [] }
    group.permissions.push({ permission, action: words(action) })
    groups.set(resource, group)
  }
  return [...groups.values()]
}
