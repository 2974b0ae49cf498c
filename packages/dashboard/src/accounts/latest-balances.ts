import { paginate } from '@kassa/client'
import { kassa } from '../api/kassa'
import type { Balance } from './account-types'

/** An account's latest booked and available balances, as its bank last reported them. */
export interface CurrentBalances {
  booked?: Balance
  available?: Balance
}

/**
 * The latest balance of each account and type (the balances list's mostRecent), by account id: of every
 * account, or of the one given.
 */
export async function latestBalances(accountId?: string): Promise<Map<string, CurrentBalances>> {
  const byAccount = new Map<string, CurrentBalances>()
  const query = { mostRecent: true, limit: 500, ...(accountId ? { accountId } : {}) }
  for await (const balance of paginate(kassa, '/financial-data/v2/balances', { query })) {
    const current = byAccount.get(balance.accountId) ?? {}
    current[balance.type === 'BOOKED' ? 'booked' : 'available'] = balance
    byAccount.set(balance.accountId, current)
  }
  return byAccount
}
