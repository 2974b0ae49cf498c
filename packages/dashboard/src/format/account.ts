import type { AccountSnapshot } from '../api/types'

/** An IBAN in groups of four, as it is printed on paper (ISO 13616-1 §5.4). */
export function groupIban(iban: string): string {
  return iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ')
}

/** The identifier people know an account by: its IBAN when it has one, else its first identifier. */
export function accountLabel(account: Pick<AccountSnapshot, 'identifiers'>): string {
  const iban = account.identifiers.find((identifier) => identifier.type === 'IBAN')
  if (iban) return groupIban(iban.number)
  const first = account.identifiers[0]
  return first ? first.number : '—'
}
