import { paginate } from '@kassa/client'
import { kassa } from '../api/kassa'
import { useLoad } from '../api/use-load'
import { accountLabel } from '../format/account'
import type { Choice } from '../ui/select-field'
import type { Account } from './account-types'

/**
 * Every own account of the organization (all pages, 500 at a time): what the account choosers of the
 * payment filters and the credit-transfer form offer, and what names an imported statement's accounts.
 */
export function useOwnAccounts() {
  return useLoad(async () => {
    const accounts: Account[] = []
    for await (const account of paginate(kassa, '/financial-data/v2/accounts', { query: { limit: 500 } })) accounts.push(account)
    return accounts
  }, [])
}

/** The name people gave the account (its alias), else the bank's name for it. */
export function accountName(account: Pick<Account, 'alias' | 'name'>): string {
  return account.alias ?? account.name
}

/** "Operating account · DE12 3456 … · EUR": an account as a choice in a list. */
export function accountChoice(account: Account): string {
  return `${accountName(account)} · ${accountLabel(account)} · ${account.currency}`
}

/** The own accounts as a select's choices, by id. */
export function accountChoices(accounts: Account[]): Choice[] {
  return accounts.map((account) => ({ value: account.id, label: accountChoice(account) }))
}
