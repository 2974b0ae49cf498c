import { paginate } from '@kassa/client'
import { kassa } from '../api/kassa'
import { useLoad } from '../api/use-load'
import type { Choice } from '../ui/select-field'
import type { Role, User } from './types'

async function all<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const collected: Item[] = []
  for await (const item of items) collected.push(item)
  return collected
}

/**
 * Every role and user of the organization, for the forms that choose among them (a user's role, a
 * chain's approvers): all pages, 500 at a time. (Own accounts: accounts/own-accounts.ts.)
 */
export const allRoles = () => all(paginate(kassa, '/iam/v2/roles', { query: { limit: 500 } }))
export const allUsers = () => all(paginate(kassa, '/iam/v2/users', { query: { limit: 500 } }))

export const useRoles = () => useLoad<Role[]>(allRoles, [])
export const useUsers = () => useLoad<User[]>(allUsers, [])

/** Roles as a select's choices, by id. */
export const roleChoices = (roles: Role[]): Choice[] => roles.map((role) => ({ value: role.id, label: role.name }))

/** The approvers an approval chain's form chooses among. */
export interface ChainChoices {
  roles: Role[]
  users: User[]
}

export async function chainChoices(): Promise<ChainChoices> {
  const [roles, users] = await Promise.all([allRoles(), allUsers()])
  return { roles, users }
}
