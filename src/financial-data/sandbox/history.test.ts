import { validateIBAN } from 'ibantools'
import { describe, expect, it } from 'vitest'
import { addDays, isBusinessDay } from '../../shared/calendar.js'
import { generateHistory, HISTORY_DAYS, type HistoryAccount, type SeededLedger } from './history.js'

const ACCOUNTS: HistoryAccount[] = [
  { role: 'operating', name: 'Operating account', currency: 'EUR', iban: 'DE89370400440532013000' },
  { role: 'payroll', name: 'Payroll account', currency: 'EUR', iban: 'DE02120300000000202051' },
  { role: 'nordic', name: 'Nordic account', currency: 'SEK', iban: 'SE4550000000058398257466' },
]
const TODAY = '2025-06-15'
const ORG = '01978a3c-0000-7000-8000-000000000001'

describe('generateHistory', () => {
  it('gives the same history for the same organization and a different one for another', () => {
    expect(generateHistory(ORG, ACCOUNTS, TODAY)).toEqual(generateHistory(ORG, ACCOUNTS, TODAY))
    const other = generateHistory('01978a3c-0000-7000-8000-000000000002', ACCOUNTS, TODAY)
    expect(other[0]!.entries.map((e) => e.amount)).not.toEqual(generateHistory(ORG, ACCOUNTS, TODAY)[0]!.entries.map((e) => e.amount))
  })

  it('covers the months before today on business days, with opening balances', () => {
    for (const ledger of generateHistory(ORG, ACCOUNTS, TODAY)) {
      expect(ledger.openingDate).toBe(addDays(TODAY, -HISTORY_DAYS))
      expect(ledger.openingBalance).toBeGreaterThan(0)
      for (const entry of ledger.entries) {
        expect(entry.date >= ledger.openingDate && entry.date < TODAY).toBe(true)
        expect(isBusinessDay(entry.date)).toBe(true)
        expect(Number.isSafeInteger(entry.amount) && entry.amount !== 0).toBe(true)
        expect(entry.valueDate <= entry.date).toBe(true)
      }
      const months = new Set(ledger.entries.map((entry) => entry.date.slice(0, 7)))
      expect(months.size).toBeGreaterThanOrEqual(3)
    }
  })

  it('has the kinds of entries a business account has', () => {
    const [operating, payroll, nordic] = generateHistory(ORG, ACCOUNTS, TODAY)
    const kinds = (entries: SeededLedger['entries']) => new Set(entries.map((e) => `${e.bankTransactionCode?.family}/${e.bankTransactionCode?.subfamily}`))
    expect([...kinds(operating!.entries)]).toEqual(
      expect.arrayContaining(['MCRD/POSP', 'RCDT/ESCT', 'ICDT/ESCT', 'RDDT/ESDD', 'ICDT/BOOK', 'MDOP/CHRG']),
    )
    expect([...kinds(payroll!.entries)]).toEqual(expect.arrayContaining(['RCDT/BOOK', 'ICDT/SALA', 'MDOP/CHRG']))
    expect([...kinds(nordic!.entries)]).toEqual(expect.arrayContaining(['RCDT/DMCT', 'ICDT/DMCT', 'MCRD/POSP', 'MDOP/CHRG']))
    expect(operating!.entries.length).toBeGreaterThan(100)
    // Each month's payroll funding leaves the operating account and reaches the payroll account the same day.
    const out = operating!.entries.filter((e) => e.bankTransactionCode?.subfamily === 'BOOK')
    const into = payroll!.entries.filter((e) => e.bankTransactionCode?.subfamily === 'BOOK')
    expect(into.map((e) => [e.date, e.amount])).toEqual(out.map((e) => [e.date, -e.amount]))
  })

  it('uses valid counterparty IBANs and unique entry references, and never overdraws', () => {
    for (let seed = 0; seed < 20; seed++) {
      const ledgers = generateHistory(`org-${seed}`, ACCOUNTS, TODAY)
      for (const ledger of ledgers) {
        const references = new Set(ledger.entries.map((e) => e.entryReference))
        expect(references.size).toBe(ledger.entries.length)
        let balance = ledger.openingBalance
        for (const entry of ledger.entries) {
          balance += entry.amount
          expect(balance).toBeGreaterThanOrEqual(0)
          for (const identifier of entry.counterparty?.account?.identifiers ?? []) expect(validateIBAN(identifier.number).valid).toBe(true)
        }
      }
    }
  })

  it('seeds only the roles it is given', () => {
    const [only] = generateHistory(ORG, [ACCOUNTS[2]!], TODAY)
    expect(only!.entries.every((e) => e.bankTransactionCode?.family !== 'ICDT' || e.bankTransactionCode.subfamily === 'DMCT')).toBe(true)
  })
})
