import { createHash } from 'node:crypto'
import { composeIBAN } from 'ibantools'
import type { Executor } from '../../db/database.js'
import type { AccountsTable } from '../../db/schema.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { accountRepo } from '../accounts/account.repo.js'
import { reportBalances } from '../bookings/balance-reports.js'
import { currencyExponent } from '../../shared/money.js'
import { BankConnectorError } from './bank-connector.js'
import { sandboxRepo } from './sandbox.repo.js'

/** The simulated bank every sandbox organization banks with (fictive BICs, as the reference's Testbank). */
export const SANDBOX_BANK_NAME = 'Kassa Testbank'
/** The BIC of its German head office, which holds the EUR accounts; its Swedish branch is KASASESSXXX. */
export const SANDBOX_BANK_BIC = 'KASADEFFXXX'

/** What an account is for: the seeded history differs by role. */
export type SandboxAccountRole = 'operating' | 'payroll' | 'nordic'

interface SandboxAccountPlan {
  role: SandboxAccountRole
  name: string
  currency: string
  market: 'DE' | 'SE'
  bic: string
  /** Builds the national account number (BBAN) from deterministic digits. */
  bban: (digits: string) => string
}

const PLANS: SandboxAccountPlan[] = [
  { role: 'operating', name: 'Operating account', currency: 'EUR', market: 'DE', bic: SANDBOX_BANK_BIC, bban: (d) => `50010517${d.slice(0, 10)}` },
  { role: 'payroll', name: 'Payroll account', currency: 'EUR', market: 'DE', bic: SANDBOX_BANK_BIC, bban: (d) => `50010517${d.slice(10, 20)}` },
  { role: 'nordic', name: 'Nordic account', currency: 'SEK', market: 'SE', bic: 'KASASESSXXX', bban: (d) => `500${d.slice(20, 37)}` },
]

/** Decimal digits derived from the organization id: the same organization always gets the same account numbers. */
function digitsFor(organizationId: string): string {
  const hash = createHash('sha512').update(`sandbox-accounts:${organizationId}`).digest()
  return Array.from(hash, (byte) => String(byte % 10)).join('')
}

export interface OpenedSandboxAccount {
  role: SandboxAccountRole
  iban: string
  row: AccountsTable
}

/** Whom the sandbox bank's accounts are opened for: the entity they belong to, and the bank's connection they are held through. */
export interface SandboxAccountOwner {
  entityId: string
  /** The organization's SANDBOX connection: the accounts' thirdPartyId. */
  connectionId: string
}

/** Opens the sandbox bank's accounts for a new sandbox organization: two EUR accounts and one SEK account. */
export async function openSandboxAccounts(trx: Executor, organizationId: string, owner: SandboxAccountOwner): Promise<OpenedSandboxAccount[]> {
  const digits = digitsFor(organizationId)
  const now = nowIso()
  const opened: OpenedSandboxAccount[] = []
  for (const plan of PLANS) {
    const iban = composeIBAN({ countryCode: plan.market, bban: plan.bban(digits) })
    if (!iban) throw new Error(`Could not compose a ${plan.market} IBAN for ${plan.name}`)
    const row: AccountsTable = {
      id: newId(),
      organization_id: organizationId,
      external_id: null,
      name: plan.name,
      alias: null,
      market: plan.market,
      currency: plan.currency,
      bank_name: SANDBOX_BANK_NAME,
      bic: plan.bic,
      identifiers: JSON.stringify([{ market: plan.market, type: 'IBAN', number: iban }]),
      fictive: 1,
      connection_id: owner.connectionId,
      entity_id: owner.entityId,
      metadata: '{}',
      version: 1,
      created: now,
      updated: now,
    }
    await accountRepo.insert(trx, row)
    opened.push({ role: plan.role, iban, row })
  }
  return opened
}

/** What the simulated bank credits an account opened through a files connection with: a million in its currency. */
const OPENING_MAJOR_UNITS = 1_000_000

/**
 * Opens an account registered on a connection to the simulated bank (docs/sandbox-bank.md), in the caller's
 * transaction: its ledger starts on the bank's today with a million of its currency, reported as the day's BOOKED
 * OPEN balance. The bank then holds it as it holds the seeded accounts.
 * @throws BankConnectorError when the organization has no sandbox bank.
 */
export async function openAtSandboxBank(trx: Executor, account: Pick<AccountsTable, 'id' | 'organization_id' | 'currency'>): Promise<void> {
  const bank = await sandboxRepo.findBank(trx, account.organization_id)
  if (!bank) throw new BankConnectorError(`Organization ${account.organization_id} has no sandbox bank`)
  const openingBalance = OPENING_MAJOR_UNITS * 10 ** (currencyExponent(account.currency) ?? 2)
  await sandboxRepo.insertAccounts(trx, [{ account_id: account.id, organization_id: account.organization_id, opening_balance: openingBalance, opening_date: bank.today, created: nowIso() }])
  await reportBalances(trx, account, [{ type: 'BOOKED', reportedType: 'OPEN', localDate: bank.today, amount: openingBalance }])
}
