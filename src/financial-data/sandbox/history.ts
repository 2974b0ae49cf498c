import type { BookedEntry } from '../bookings/booking.service.js'
import { BTC } from './bank-codes.js'
import { addDays, businessDayOnOrAfter, businessDayOnOrBefore, dayInMonth, eachDay, weekday } from '../../shared/calendar.js'
import {
  EUR_ACQUIRERS,
  EUR_CUSTOMERS,
  EUR_RECURRING,
  EUR_SUPPLIERS,
  FIRST_NAMES,
  LAST_NAMES,
  SEK_ACQUIRERS,
  SEK_CUSTOMERS,
  SEK_SUPPLIERS,
  type CatalogParty,
  type RecurringCreditor,
} from './history-catalog.js'
import { seededRandom } from './prng.js'
import { LedgerWriter, counterpartyOf, ibanOf, money, monthName, ownCounterparty, previousMonthEnd, sample } from './history-parts.js'
import type { SandboxAccountRole } from './sandbox-accounts.js'

/**
 * The booked history a sandbox organization starts with, pure and deterministic: the same
 * organization id and dates give the same entries, amounts, counterparties and references.
 * Business days only; every outflow is skipped rather than overdrawing an account.
 *
 * - Operating (EUR): daily card settlements from an acquirer (Mondays carry the weekend), customer
 *   receipts by SEPA credit transfer, supplier payments, monthly SEPA direct debits (rent, energy,
 *   insurance, telecom, leasing), the monthly payroll funding transfer, and bank fees.
 * - Payroll (EUR): the funding transfer in, salaries out on payday, wage tax and social security
 *   around the 10th, fees.
 * - Nordic (SEK): domestic receipts with OCR references, Klarna settlements twice a week, supplier
 *   payments, fees.
 */

export const HISTORY_DAYS = 90

const TAX_OFFICE: CatalogParty = { name: 'Finanzamt München', country: 'DE' }
const SEK_LANDLORD: CatalogParty = { name: 'Vasakronan AB', country: 'SE' }

export interface HistoryAccount {
  role: SandboxAccountRole
  name: string
  currency: string
  iban: string
}

export interface SeededLedger {
  openingBalance: number
  openingDate: string
  entries: BookedEntry[]
}

interface MonthDays {
  payday: string
  taxDay: string
  firstBusinessDay: string
  collections: Map<string, string>
}

interface Employee {
  party: CatalogParty
  net: number
}

/** Generates the opening balances and booked history of an organization's sandbox accounts, in `accounts` order. */
export function generateHistory(organizationId: string, accounts: readonly HistoryAccount[], today: string, days = HISTORY_DAYS): SeededLedger[] {
  const random = seededRandom(`sandbox-history:${organizationId}`)
  const openingDate = addDays(today, -days)
  const lastDay = addDays(today, -1)
  const scale = 0.6 + random.next() * 1.2
  const scaled = (minor: number) => Math.round(minor * scale)
  const e2e = (date: string) => `E2E${date.replaceAll('-', '')}${random.digits(10)}`
  const ibans = new Map<string, string>()
  const party = (catalogParty: CatalogParty, partyType: 'COMPANY' | 'INDIVIDUAL' = 'COMPANY') =>
    counterpartyOf(ibanOf(random, catalogParty, ibans), catalogParty, partyType)

  const operatingAccount = accounts.find((account) => account.role === 'operating')
  const payrollAccount = accounts.find((account) => account.role === 'payroll')

  // The organization's cast.
  const customers = sample(random, EUR_CUSTOMERS, random.int(7, 12))
  const suppliers = sample(random, EUR_SUPPLIERS, random.int(6, 10))
  const acquirer = random.pick(EUR_ACQUIRERS)
  const creditors = sample(random, EUR_RECURRING, random.int(3, 5)).map((creditor: RecurringCreditor) => ({
    creditor,
    amount: scaled(money(random, creditor.min, creditor.max)),
    mandateReference: `MNDT${random.digits(10)}`,
    variable: creditor.what.startsWith('Abschlag'),
  }))
  const employees: Employee[] = Array.from({ length: random.int(5, 12) }, () => ({
    party: { name: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`, country: 'DE' as const },
    net: money(random, 2_300, 6_800),
  }))
  const netPayroll = employees.reduce((sum, employee) => sum + employee.net, 0)
  const wageTax = Math.round(netPayroll * 0.19)
  const socialSecurity = Math.round(netPayroll * 0.41)
  const sekCustomers = sample(random, SEK_CUSTOMERS, random.int(4, 7))
  const sekSuppliers = sample(random, SEK_SUPPLIERS, random.int(3, 5))
  const sekAcquirer = random.pick(SEK_ACQUIRERS)
  let invoiceNumber = random.int(1_000, 8_000)
  const taxNumber = `${random.digits(3)}/${random.digits(5)}`
  const vatBase = scaled(money(random, 9_000, 26_000))
  const sekRent = scaled(money(random, 45_000, 140_000))

  const writers = accounts.map((account, index) => {
    const opening =
      account.role === 'operating'
        ? scaled(money(random, 180_000, 520_000))
        : account.role === 'payroll'
          ? money(random, 15_000, 40_000) + wageTax + socialSecurity
          : scaled(money(random, 350_000, 1_800_000))
    return new LedgerWriter(index + 1, opening, account.role === 'payroll' ? 0 : Math.round(opening * 0.05))
  })
  const writerOf = (role: SandboxAccountRole) => {
    const index = accounts.findIndex((account) => account.role === role)
    return index < 0 ? undefined : writers[index]
  }
  const operating = writerOf('operating')
  const payroll = writerOf('payroll')
  const nordic = writerOf('nordic')

  const months = new Map<string, MonthDays>()
  const monthOf = (date: string): MonthDays => {
    const key = date.slice(0, 7)
    let month = months.get(key)
    if (!month) {
      month = {
        payday: businessDayOnOrBefore(dayInMonth(date, 25)),
        taxDay: businessDayOnOrAfter(dayInMonth(date, 10)),
        firstBusinessDay: businessDayOnOrAfter(`${key}-01`),
        collections: new Map(creditors.map((entry) => [entry.creditor.name, businessDayOnOrAfter(dayInMonth(date, entry.creditor.day))])),
      }
      months.set(key, month)
    }
    return month
  }

  for (const date of eachDay(openingDate, lastDay)) {
    const day = weekday(date)
    if (day === 0 || day === 6) continue
    const month = monthOf(date)
    const paydayOfMonth = month.payday
    const taxDayOfMonth = month.taxDay
    const firstBusinessDay = month.firstBusinessDay

    if (operating) {
      const sales = scaled(money(random, 1_800, 5_200))
      const weekend = day === 1 ? 2.7 : 1
      operating.credit(date, Math.round(sales * weekend * (0.7 + random.next() * 0.6)), {
        description: `${acquirer.name} payout ${date}`,
        reference: `PAYOUT ${random.digits(12)}`,
        counterparty: party(acquirer),
        bankTransactionCode: BTC.cardSettlement,
      })
      for (let i = random.pick([0, 1, 1, 2, 2, 3]); i > 0; i--) {
        const customer = random.pick(customers)
        invoiceNumber += random.int(1, 4)
        const reference = `Invoice INV-${date.slice(0, 4)}-${String(invoiceNumber).padStart(5, '0')}`
        operating.credit(date, scaled(money(random, 350, 9_000)), {
          description: reference,
          reference,
          endToEndId: random.chance(0.4) ? 'NOTPROVIDED' : e2e(date),
          counterparty: party(customer),
          bankTransactionCode: BTC.sepaCreditReceived,
        })
      }
      for (const { creditor, amount, mandateReference, variable } of creditors) {
        if (month.collections.get(creditor.name) !== date) continue
        const charged = variable ? Math.round(amount * (0.9 + random.next() * 0.2)) : amount
        const reference = `${creditor.what} ${monthName(date)}`
        operating.debit(date, charged, {
          description: reference,
          reference,
          mandateReference,
          endToEndId: e2e(date),
          counterparty: party(creditor),
          bankTransactionCode: BTC.directDebitPaid,
        })
      }
      if (payroll && payrollAccount && operatingAccount && date === paydayOfMonth) {
        const funding = netPayroll + wageTax + socialSecurity
        const reference = `Umbuchung Gehälter ${monthName(date)}`
        if (operating.debit(date, funding, { description: reference, reference, counterparty: ownCounterparty(payrollAccount), bankTransactionCode: BTC.bookTransferIssued })) {
          payroll.credit(date, funding, { description: reference, reference, counterparty: ownCounterparty(operatingAccount), bankTransactionCode: BTC.bookTransferReceived })
        }
      }
      for (let i = random.pick([0, 1, 1, 2, 2]); i > 0; i--) {
        const supplier = random.pick(suppliers)
        const reference = `Rechnung ${random.int(10, 99)}-${random.digits(6)}`
        operating.debit(date, scaled(money(random, 150, 12_000)), {
          description: `${supplier.name} ${reference}`,
          reference,
          endToEndId: e2e(date),
          counterparty: party(supplier),
          bankTransactionCode: BTC.sepaCreditIssued,
        })
      }
      if (date === taxDayOfMonth) {
        const label = monthName(previousMonthEnd(date))
        operating.debit(date, Math.round(vatBase * (0.8 + random.next() * 0.4)), {
          description: `Umsatzsteuer-Voranmeldung ${label}`,
          reference: `Steuernummer 143/${taxNumber} USt ${label}`,
          endToEndId: e2e(date),
          counterparty: party(TAX_OFFICE),
          bankTransactionCode: BTC.sepaCreditIssued,
        })
      }
      if (date === firstBusinessDay) {
        const valueDate = previousMonthEnd(date)
        const label = monthName(valueDate)
        operating.debit(date, money(random, 19, 45), { description: `Kontoführungsentgelt ${label}`, valueDate, bankTransactionCode: BTC.fees })
        operating.debit(date, money(random, 8, 60), { description: `Transaktionsentgelte ${label}`, valueDate, bankTransactionCode: BTC.fees })
      }
    }

    if (payroll) {
      if (date === taxDayOfMonth) {
        const label = monthName(previousMonthEnd(date))
        payroll.debit(date, wageTax, {
          description: `Lohnsteuer-Anmeldung ${label}`,
          reference: `Steuernummer 143/${taxNumber} LSt ${label}`,
          endToEndId: e2e(date),
          counterparty: party(TAX_OFFICE),
          bankTransactionCode: BTC.sepaCreditIssued,
        })
        payroll.debit(date, socialSecurity, {
          description: `Sozialversicherungsbeiträge ${label}`,
          reference: `Beitragsnachweis ${label}`,
          mandateReference: `SVMNDT${organizationId.slice(0, 8).toUpperCase()}`,
          endToEndId: e2e(date),
          counterparty: party({ name: 'AOK Bayern', country: 'DE' }),
          bankTransactionCode: BTC.directDebitPaid,
        })
      }
      if (date === paydayOfMonth) {
        for (const employee of employees) {
          const reference = `Gehalt ${monthName(date)}`
          payroll.debit(date, employee.net, {
            description: `${reference} ${employee.party.name}`,
            reference,
            endToEndId: e2e(date),
            counterparty: party(employee.party, 'INDIVIDUAL'),
            bankTransactionCode: BTC.salaryIssued,
          })
        }
      }
      if (date === firstBusinessDay) {
        payroll.debit(date, money(random, 9, 19), { description: `Kontoführungsentgelt ${monthName(previousMonthEnd(date))}`, valueDate: previousMonthEnd(date), bankTransactionCode: BTC.fees })
      }
    }

    if (nordic) {
      for (let i = random.pick([0, 0, 1, 1, 2]); i > 0; i--) {
        const reference = random.digits(random.int(10, 15))
        nordic.credit(date, scaled(money(random, 1_500, 40_000)), {
          description: `OCR ${reference}`,
          reference,
          counterparty: party(random.pick(sekCustomers)),
          bankTransactionCode: BTC.domesticCreditReceived,
        })
      }
      if (day === 2 || day === 5) {
        nordic.credit(date, scaled(money(random, 5_000, 30_000)), {
          description: `${sekAcquirer.name} utbetalning ${date}`,
          reference: `Settlement ${random.digits(9)}`,
          counterparty: party(sekAcquirer),
          bankTransactionCode: BTC.cardSettlement,
        })
      }
      for (let i = random.pick([0, 0, 1, 1, 2]); i > 0; i--) {
        const supplier = random.pick(sekSuppliers)
        const reference = `Faktura ${random.digits(7)}`
        nordic.debit(date, scaled(money(random, 800, 45_000)), {
          description: `${supplier.name} ${reference}`,
          reference,
          endToEndId: e2e(date),
          counterparty: party(supplier),
          bankTransactionCode: BTC.domesticCreditIssued,
        })
      }
      if (date === firstBusinessDay) {
        const reference = `Hyra ${date.slice(0, 7)} kontor`
        nordic.debit(date, sekRent, {
          description: `${SEK_LANDLORD.name} ${reference}`,
          reference,
          endToEndId: e2e(date),
          counterparty: party(SEK_LANDLORD),
          bankTransactionCode: BTC.domesticCreditIssued,
        })
        const valueDate = previousMonthEnd(date)
        nordic.debit(date, money(random, 99, 299), { description: `Kontoavgift ${valueDate.slice(0, 7)}`, valueDate, bankTransactionCode: BTC.fees })
      }
    }
  }

  return writers.map((writer) => ({ openingBalance: writer.openingBalance, openingDate, entries: writer.entries }))
}

