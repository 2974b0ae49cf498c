import { accountNumberKey, type NumberedAccount } from '../accounts/index.js'
import type { CamtStatementHead } from './camt-parser.js'
import { normalizeIban } from './statement-entries.js'

/**
 * The account a statement names: Acct/Id/IBAN, or Acct/Id/Othr/Id — the domestic account number that
 * Swiss, Nordic, US and Baltic banks send instead — matched against every identifier of the
 * organization's accounts, of whatever type registration accepted (account-numbers.ts).
 */

export interface AccountProblem {
  code: 'required' | 'unknown_account' | 'ambiguous_account' | 'currency_mismatch'
  field: string
  error: string
}

export interface AccountMatch {
  /** The account the statement names, also when its currency is another (then `problem` says so). */
  account?: NumberedAccount
  /** The number it names it by, exactly one of the two: its IBAN (normalized) or its Othr/Id. */
  iban?: string
  otherAccountId?: string
  problem?: AccountProblem
}

/** `accounts`: the organization's accounts by accountNumberKey; `name`: the statement's, for the errors. */
export function matchAccount(statement: CamtStatementHead, accounts: ReadonlyMap<string, NumberedAccount[]>, name: string): AccountMatch {
  const { path } = statement
  const { iban, otherId, currency } = statement.account
  if (iban === undefined && otherId === undefined) {
    return { problem: { code: 'required', field: `${path}.Acct.Id`, error: `is required: the IBAN or other account number (Othr/Id) of statement ${name}` } }
  }
  const number = iban !== undefined ? normalizeIban(iban) : otherId!
  const numbered = iban !== undefined ? { iban: number } : { otherAccountId: number }
  const field = iban !== undefined ? `${path}.Acct.Id.IBAN` : `${path}.Acct.Id.Othr.Id`
  const named = iban !== undefined ? `IBAN ${number}` : `account number ${number}`
  const matches = accounts.get(accountNumberKey(number)) ?? []
  if (matches.length !== 1) {
    const problem: AccountProblem =
      matches.length === 0
        ? { code: 'unknown_account', field, error: `no account with ${named} in this organization (statement ${name}); register it with that number among its identifiers` }
        : { code: 'ambiguous_account', field, error: `several accounts have ${named} (statement ${name})` }
    return { ...numbered, problem }
  }
  const account = matches[0]!
  if (currency !== undefined && currency !== account.currency) {
    const error = `statement ${name} is in ${currency}, but account ${account.id} (${number}) is in ${account.currency}`
    return { ...numbered, account, problem: { code: 'currency_mismatch', field: `${path}.Acct.Ccy`, error } }
  }
  return { ...numbered, account }
}
