import { composeIBAN } from 'ibantools'
import type { BookedEntry } from '../bookings/booking.service.js'
import type { BankTransactionCode, TransactionCounterparty } from '../transactions/transaction.schemas.js'
import { addDays } from '../../shared/calendar.js'
import { MONTHS_DE, type CatalogParty } from './history-catalog.js'
import type { HistoryAccount } from './history.js'
import type { Random } from './prng.js'

/** The pieces the history generator composes: amounts, counterparties with valid IBANs, dates, and the ledger writer. Pure. */

/** Whole units (euros, kronor) to minor units with random cents. */
export function money(random: Random, minUnits: number, maxUnits: number): number {
  return random.int(minUnits, maxUnits) * 100 + random.int(0, 99)
}

function bbanFor(party: CatalogParty, random: Random): string {
  switch (party.country) {
    case 'DE':
      return random.digits(18)
    case 'NL':
      return `${party.bankCode ?? 'RABO'}${random.digits(10)}`
    case 'AT':
      return random.digits(16)
    case 'FI':
      return random.digits(14)
    case 'IE':
      return `${party.bankCode ?? 'AIBK'}${random.digits(14)}`
    case 'LU':
      return random.digits(16)
    case 'SE':
      return random.digits(20)
  }
}

/** The party's IBAN at this organization: derived from the organization's seed and the party's name. */
export function ibanOf(random: Random, party: CatalogParty, cache: Map<string, string>): string {
  const known = cache.get(party.name)
  if (known) return known
  const iban = composeIBAN({ countryCode: party.country, bban: bbanFor(party, random.fork(`iban:${party.name}`)) })
  if (!iban) throw new Error(`Could not compose an IBAN for ${party.name}`)
  cache.set(party.name, iban)
  return iban
}

export function counterpartyOf(iban: string, party: CatalogParty, partyType: 'COMPANY' | 'INDIVIDUAL'): TransactionCounterparty {
  return { partyType, name: party.name, account: { market: party.country, identifiers: [{ market: party.country, type: 'IBAN', number: iban }] } }
}

export function ownCounterparty(account: HistoryAccount): TransactionCounterparty {
  const market = account.iban.slice(0, 2)
  return { partyType: 'COMPANY', name: account.name, account: { market, identifiers: [{ market, type: 'IBAN', number: account.iban }] } }
}

/** Draws `count` distinct items, in a seeded order. */
export function sample<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items]
  const chosen: T[] = []
  while (chosen.length < count && pool.length > 0) chosen.push(pool.splice(random.int(0, pool.length - 1), 1)[0]!)
  return chosen
}

export function monthName(date: string): string {
  return `${MONTHS_DE[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`
}

export function previousMonthEnd(date: string): string {
  return addDays(`${date.slice(0, 8)}01`, -1)
}

export interface EntryFields {
  description: string
  bankTransactionCode: BankTransactionCode
  counterparty?: TransactionCounterparty
  reference?: string
  endToEndId?: string
  mandateReference?: string
  valueDate?: string
}

/** One account's ledger as it is written: the running balance keeps outflows from overdrawing it. */
export class LedgerWriter {
  readonly entries: BookedEntry[] = []
  private sequence = 0
  balance: number

  constructor(
    readonly index: number,
    readonly openingBalance: number,
    private readonly floor: number,
  ) {
    this.balance = openingBalance
  }

  private add(date: string, amount: number, fields: EntryFields): void {
    this.sequence += 1
    this.balance += amount
    const { valueDate, ...rest } = fields
    this.entries.push({
      entryReference: `KTB${date.replaceAll('-', '')}${this.index}${String(this.sequence).padStart(5, '0')}`,
      amount,
      date,
      valueDate: valueDate ?? date,
      ...rest,
    })
  }

  credit(date: string, amount: number, fields: EntryFields): void {
    this.add(date, amount, fields)
  }

  /** Books the outflow unless it would take the balance below the floor; says whether it did. */
  debit(date: string, amount: number, fields: EntryFields): boolean {
    if (this.balance - amount < this.floor) return false
    this.add(date, -amount, fields)
    return true
  }
}
