import { readFileSync } from 'node:fs'
import type { LightMyRequestResponse } from 'fastify'
import type { Credentials } from '../../src/iam/index.js'
import type { TestApp } from '../support/test-app.js'

const FIXTURES = new URL('../fixtures/camt/', import.meta.url)

export interface SandboxAccount {
  id: string
  name: string
  currency: string
  iban: string
}

/** The sandbox organization's accounts (Operating EUR, Payroll EUR, Nordic SEK) with their IBANs. */
export async function sandboxAccounts(t: TestApp, as?: Credentials): Promise<Record<'operating' | 'payroll' | 'nordic', SandboxAccount>> {
  const response = await t.request({ method: 'GET', url: '/financial-data/v2/accounts', ...(as ? { as } : {}) })
  const items = (response.json() as { items: Array<{ id: string; name: string; currency: string; identifiers: Array<{ type: string; number: string }> }> }).items
  const byName = (name: string): SandboxAccount => {
    const account = items.find((item) => item.name === name)
    if (!account) throw new Error(`no sandbox account ${name}`)
    const iban = account.identifiers.find((identifier) => identifier.type === 'IBAN')!.number
    return { id: account.id, name: account.name, currency: account.currency, iban }
  }
  return { operating: byName('Operating account'), payroll: byName('Payroll account'), nordic: byName('Nordic account') }
}

/** A fixture file of test/fixtures/camt/ with {{IBAN_…}} placeholders filled in. */
export function camtFixture(name: string, ibans: Partial<Record<'operating' | 'payroll' | 'nordic', string>>): string {
  let xml = readFileSync(new URL(name, FIXTURES), 'utf8')
  for (const [key, iban] of Object.entries(ibans)) xml = xml.replaceAll(`{{IBAN_${key.toUpperCase()}}}`, iban)
  return xml
}

export function postStatement(
  t: TestApp,
  xml: string,
  options: { contentType?: string; as?: Credentials; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url: '/financial-data/v2/statements',
    body: xml,
    headers: { 'content-type': options.contentType ?? 'application/xml', ...options.headers },
    ...(options.as ? { as: options.as } : {}),
  })
}

/** Registers an own account at a real bank (POST /financial-data/v2/accounts) with the identifiers given; returns its id. */
export async function registerAccount(
  t: TestApp,
  as: Credentials,
  account: { currency: string; market: string; identifiers: Array<{ type: string; number: string }> },
): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/financial-data/v2/accounts',
    as,
    body: {
      name: `${account.market} ${account.currency} account`,
      market: account.market,
      currency: account.currency,
      bank: { name: `A bank in ${account.market}` },
      identifiers: account.identifiers.map((identifier) => ({ market: account.market, ...identifier })),
    },
  })
  if (response.statusCode !== 201) throw new Error(`account not registered: ${response.body}`)
  return (response.json() as { id: string }).id
}

/** Rows of the tables an import writes: what a rejected import must leave unchanged. */
export async function writtenRows(t: TestApp): Promise<{ transactions: number; balances: number; events: number }> {
  const db = t.db.database.db
  const count = async (table: 'transactions' | 'balances' | 'events') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  return { transactions: await count('transactions'), balances: await count('balances'), events: await count('events') }
}

export interface ListedTransaction {
  id: string
  accountId: string
  amount: { currency: string; value: number; stringValue: string }
  date: string
  valueDate: string
  dateSource?: 'VALUE_DATE' | 'STATEMENT_DATE'
  description: string
  reference?: string
  references: { endToEndId?: string; mandateReference?: string; entryReference: string }
  counterparty?: { name?: string; account?: { market?: string; identifiers: Array<{ type: string; market: string; number: string }>; bic?: string; rawIdentifier?: string } }
  bankTransactionCode?: { domain?: string; family?: string; subfamily?: string; proprietary?: { code: string; issuer?: string } }
  returned: boolean
  returnReason?: { code: string; description?: string }
}

/** The transaction with this entry reference; fails naming those there are. */
export function byReference(transactions: ListedTransaction[], entryReference: string): ListedTransaction {
  const found = transactions.find((transaction) => transaction.references.entryReference === entryReference)
  if (!found) throw new Error(`no transaction ${entryReference} in ${transactions.map((tx) => tx.references.entryReference).join(', ')}`)
  return found
}

/** Statement fixtures are dated February–March 2026; the sandbox bank's own seeded history (references KTB…) is left out. */
export async function listTransactions(t: TestApp, accountId: string, as?: Credentials): Promise<ListedTransaction[]> {
  const response = await t.request({ method: 'GET', ...(as ? { as } : {}), url: `/financial-data/v2/transactions?accountId=${accountId}&limit=500&date[lte]=2026-03-31` })
  return (response.json() as { items: ListedTransaction[] }).items.filter((item) => !item.references.entryReference.startsWith('KTB'))
}

export interface ListedBalance {
  type: string
  reportedType: string
  amount: { currency: string; value: number; stringValue: string }
  localDate: string
}

/** The balances of the fixtures' days (February–March 2026), not the sandbox bank's. */
export async function listBalances(t: TestApp, accountId: string, as?: Credentials): Promise<ListedBalance[]> {
  const response = await t.request({
    method: 'GET',
    ...(as ? { as } : {}),
    url: `/financial-data/v2/accounts/${accountId}/balances?limit=500&date[gte]=2026-02-01&date[lte]=2026-03-31`,
  })
  return (response.json() as { items: ListedBalance[] }).items
}
