import { paginate } from '@kassa/client'
import { createContext, type ComponentChildren } from 'preact'
import { useContext, useEffect, useState } from 'preact/hooks'
import { kassa } from './kassa'

/**
 * The organization's role and user names, read once per sign-in, so pages can say "Ada Lovelace" and
 * "Treasury approver" where the API gives ids (approval steps, approvers, creators). A person whose role
 * may not read users or roles sees a short id instead; nothing else depends on it.
 */
export interface Directory {
  userName: (id: string) => string
  roleName: (id: string) => string
}

const shortId = (id: string) => `…${id.slice(-6)}`
const anonymous: Directory = { userName: shortId, roleName: shortId }
const DirectoryContext = createContext<Directory>(anonymous)

export function useDirectory(): Directory {
  return useContext(DirectoryContext)
}

async function namesOf(items: AsyncIterable<{ id: string; name: string }>): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  for await (const item of items) names.set(item.id, item.name)
  return names
}

export function DirectoryProvider({ permissions, children }: { permissions: string[]; children: ComponentChildren }) {
  const [directory, setDirectory] = useState<Directory>(anonymous)
  const canReadUsers = permissions.includes('users:read')
  const canReadRoles = permissions.includes('roles:read')

  useEffect(() => {
    const empty = Promise.resolve(new Map<string, string>())
    const failedQuietly = (names: Promise<Map<string, string>>) => names.catch(() => new Map<string, string>())
    void Promise.all([
      canReadUsers ? failedQuietly(namesOf(paginate(kassa, '/iam/v2/users', { query: { limit: 500 } }))) : empty,
      canReadRoles ? failedQuietly(namesOf(paginate(kassa, '/iam/v2/roles', { query: { limit: 500 } }))) : empty,
    ]).then(([users, roles]) =>
      setDirectory({ userName: (id) => users.get(id) ?? shortId(id), roleName: (id) => roles.get(id) ?? shortId(id) }),
    )
  }, [canReadUsers, canReadRoles])

  return <DirectoryContext.Provider value={directory}>{children}</DirectoryContext.Provider>
}
