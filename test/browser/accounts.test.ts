import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { generateCamt053 } from '../fixtures/camt/generate-camt053.js'
import { PHONE, screenshot } from './support/browser.js'
import { dashboardUnderTest } from './support/dashboard-under-test.js'
import { newPerson, signIn, type Person } from './support/kassa-server.js'

/**
 * The Accounts pages on a sandbox organization (three accounts with 90 days of booked history), and a
 * statement imported for an account held at a real bank, registered through the API.
 */
const { server, openProfile } = dashboardUnderTest()
let ada: Person

beforeAll(async () => {
  ada = await newPerson(server, 'Ada Lovelace', 'admin')
})

/** An amount as the page writes it for en-GB ("€1,250.29", "-SEK 12.00"), from the API's decimal string. */
const money = (amount: { currency: string; stringValue: string }) =>
  // Intl formats a decimal string exactly (ECMA-402); the test's TypeScript lib types only numbers.
  (new Intl.NumberFormat('en-GB', { style: 'currency', currency: amount.currency }).format as unknown as (value: string) => string)(amount.stringValue)

async function latest(accountId: string) {
  const { data } = await server.api.GET('/financial-data/v2/balances', { params: { query: { accountId, mostRecent: true } } })
  return { booked: data.items.find((item) => item.type === 'BOOKED')!, available: data.items.find((item) => item.type === 'AVAILABLE')! }
}

/** The days with a booked balance between two dates, as the API lists them. */
async function bookedDays(accountId: string, from: string, to: string): Promise<string[]> {
  const { data } = await server.api.GET('/financial-data/v2/accounts/{id}/balances', {
    params: { path: { id: accountId }, query: { type: 'BOOKED', 'date[gte]': from, 'date[lte]': to, limit: 500 } },
  })
  return [...new Set(data.items.map((item) => item.localDate))]
}

const dayBefore = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10)
const amountsIn = async (page: Page) =>
  (await page.getByRole('table', { name: 'Transactions' }).getByRole('row').locator('td:nth-child(4)').allTextContents()).map((text) => Number(text.replace(/[^\d.-]/g, '')))

describe('Accounts', () => {
  it('lists the own accounts with their latest booked and available balances', async () => {
    const { data: accounts } = await server.api.GET('/financial-data/v2/accounts')
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click()
    const table = page.getByRole('table', { name: 'Own accounts' })
    await expect.poll(() => table.getByRole('rowheader').count()).toBe(accounts.items.length)
    await expect.poll(() => table.getByRole('row', { name: /Operating account/ }).getByRole('cell').last().textContent()).toMatch(/\d/)

    for (const account of accounts.items) {
      const { booked, available } = await latest(account.id)
      const cells = await table.getByRole('row', { name: new RegExp(account.name) }).getByRole('cell').allTextContents()
      const iban = account.identifiers.find((identifier) => identifier.type === 'IBAN')!.number
      expect(cells[0]!.replace(/ /g, '')).toBe(iban)
      expect(cells[1]).toBe(account.currency)
      // The sandbox bank reports today's balances as interim ones: "so far".
      expect(cells[2]).toBe(`${money(booked.amount)}so far, ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${booked.localDate}T12:00:00Z`))}`)
      expect(cells[3]!.startsWith(money(available.amount))).toBe(true)
    }
    await screenshot(page, 'accounts')
    expect(problems).toEqual([])
    await context.close()
  })

  it("shows an account's balance history as a chart with an accessible name and summary, and its transactions filtered in the URL", async () => {
    const { data: accounts } = await server.api.GET('/financial-data/v2/accounts', { params: { query: { currency: 'EUR' } } })
    const operating = accounts.items.find((account) => account.name === 'Operating account')!
    const { booked } = await latest(operating.id)
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/accounts`)
    await page.getByRole('link', { name: 'Operating account' }).click()
    await page.getByRole('heading', { level: 1, name: 'Operating account' }).waitFor()

    const chart = page.getByRole('img', { name: 'Booked balance of Operating account, last 90 days' })
    await chart.waitFor()
    // The drawing is described in words: its description ends on the latest booked balance.
    const summary = await page.locator(`[id="${await chart.getAttribute('aria-describedby')}"]`).textContent()
    expect(summary).toMatch(new RegExp(`^From €[\\d,.]+ on \\d+ \\w+ \\d{4} to ${money(booked.amount).replace(/[.$]/g, '\\$&')} on .+Lowest €[\\d,.]+ on .+; highest €[\\d,.]+ on .+\\.$`))
    // "Balances by day" has one row per day the API reports a booked balance for.
    await page.getByText('Balances by day').click()
    const byDay = page.getByRole('table', { name: 'Booked balance of Operating account, last 90 days, by day' }).getByRole('rowheader')
    expect(await byDay.count()).toBe((await bookedDays(operating.id, dayBefore(booked.localDate, 89), booked.localDate)).length)
    expect(await byDay.count()).toBeGreaterThan(80)

    await page.getByLabel('Period').selectOption('30')
    await page.getByRole('img', { name: 'Booked balance of Operating account, last 30 days' }).waitFor()
    expect(new URL(page.url()).searchParams.get('days')).toBe('30')

    // Transactions: outflows of 100 euros or more, typed as a person would; the URL keeps the plain decimal.
    const transactions = page.getByRole('table', { name: 'Transactions' })
    await transactions.waitFor()
    await page.getByLabel('Amount to (EUR)').fill('-100')
    await page.getByLabel('Amount to (EUR)').press('Enter')
    await expect.poll(() => new URL(page.url()).searchParams.get('max')).toBe('-100.00')
    const { data: outflows } = await server.api.GET('/financial-data/v2/transactions', { params: { query: { accountId: operating.id, 'amount[lte]': -10000 } } })
    expect(outflows.items.length).toBeGreaterThan(0)
    await expect.poll(() => amountsIn(page)).toEqual(outflows.items.map((item) => item.amount.value / 100))
    await screenshot(page, 'account')

    await page.reload()
    await expect.poll(() => amountsIn(page)).toEqual(outflows.items.map((item) => item.amount.value / 100))
    expect(await page.getByLabel('Amount to (EUR)').inputValue()).toBe('-100.00')
    expect(await page.getByRole('img', { name: 'Booked balance of Operating account, last 30 days' }).count()).toBe(1)

    // A mistake stays in its box with a message and changes nothing.
    await page.getByLabel('Amount from (EUR)').fill('-1,00')
    await page.getByLabel('Amount from (EUR)').press('Enter')
    await page.getByText('Write the amount as digits, like 1,250.50.').waitFor()
    expect(new URL(page.url()).searchParams.get('min')).toBeNull()
    expect(problems).toEqual([])
    await context.close()
  })

  it("fits a phone: the account's facts, chart and transactions without sideways scrolling", async () => {
    const { data: accounts } = await server.api.GET('/financial-data/v2/accounts', { params: { query: { currency: 'SEK' } } })
    const nordic = accounts.items[0]!
    const { context, page, problems } = await openProfile({ viewport: PHONE })
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/accounts/${nordic.id}?limit=10`)
    await page.getByRole('img', { name: `Booked balance of ${nordic.name}, last 90 days` }).waitFor()
    await page.getByRole('table', { name: 'Transactions' }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await screenshot(page, 'account-phone')
    expect(problems).toEqual([])
    await context.close()
  })

  it('imports a camt.053 statement from a file, shows what was booked, and the new transactions appear on the account', async () => {
    const iban = 'DE02120300000000202051'
    const { data: account } = await server.api.POST('/financial-data/v2/accounts', {
      body: { name: 'Hausbank account', market: 'DE', currency: 'EUR', bank: { name: 'Hausbank AG', bic: 'BYLADEM1001' }, identifiers: [{ market: 'DE', type: 'IBAN', number: iban }] },
    })
    const day = dayBefore(new Date().toISOString().slice(0, 10), 1)
    const xml = generateCamt053({ iban, entries: 3, version: '001.02', bookingDate: day, opening: 10_000_00, referencePrefix: 'HB', statementId: `HB-${day}` })
    const file = { name: 'hausbank-statement.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) }

    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/accounts`)
    await page.getByRole('link', { name: 'Import statement' }).click()
    await page.getByRole('heading', { level: 1, name: 'Import statement' }).waitFor()
    await page.getByLabel('Statement file').setInputFiles(file)
    await page.getByRole('button', { name: 'Import' }).click()

    const summary = page.getByRole('region', { name: /^Imported camt\.053/ })
    await summary.waitFor()
    expect(await summary.getByRole('heading').textContent()).toBe('Imported camt.053.001.02')
    expect(await summary.getByRole('status').textContent()).toBe(`1 statement: 3 transactions booked, 0 already present (message HB-${day}-MSG).`)
    const row = summary.getByRole('row', { name: /Hausbank account/ })
    const cells = await row.getByRole('cell').allTextContents()
    const closing = 10_000_00 + 179_19 - 304_58 - 20_03
    expect(cells.slice(0, 5)).toEqual([`HB-${day}`, '3', '3', '0', '0'])
    expect(cells[5]).toContain(`CLBD ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`))} €${(closing / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`)
    await screenshot(page, 'accounts-import-statement')

    // The statement's transactions, on the account's page, by the link in the summary (filtered to its day).
    await row.getByRole('link', { name: 'Hausbank account' }).click()
    await page.getByRole('heading', { level: 1, name: 'Hausbank account' }).waitFor()
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ from: day, to: day })
    const { data: booked } = await server.api.GET('/financial-data/v2/transactions', { params: { query: { accountId: account.id } } })
    expect(booked.items).toHaveLength(3)
    const descriptions = page.getByRole('table', { name: 'Transactions' }).getByRole('rowheader')
    // Each row is named by the bank's description; a reference it does not already contain follows it.
    await expect.poll(async () => (await descriptions.allTextContents()).sort()).toEqual(['Direct debit 3', 'Invoice 2 payment', 'SEPA creditRF180000000001'])
    expect(booked.items.map((item) => [item.description, item.reference]).sort()).toEqual([
      ['Direct debit 3', 'Direct debit 3'],
      ['Invoice 2 payment', 'Invoice 2 payment'],
      ['SEPA credit', 'RF180000000001'],
    ])
    expect((await amountsIn(page)).sort((a, b) => a - b)).toEqual([-304.58, -20.03, 179.19])
    expect(await page.getByText(`${money({ currency: 'EUR', stringValue: (closing / 100).toFixed(2) })}closing`).count()).toBeGreaterThan(0)
    await screenshot(page, 'account-imported')

    // The same file again books nothing twice; a file for an account Kassa does not know is refused whole.
    await page.goto(`${server.origin}/dashboard/accounts/import`)
    await page.getByLabel('Statement file').setInputFiles(file)
    await page.getByRole('button', { name: 'Import' }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'statement' }).textContent()).toBe(`1 statement: 0 transactions booked, 3 already present (message HB-${day}-MSG).`)
    const stranger = generateCamt053({ iban: 'GB29NWBK60161331926819', entries: 1, bookingDate: day })
    await page.getByLabel('Statement file').setInputFiles({ ...file, buffer: Buffer.from(stranger) })
    await page.getByRole('button', { name: 'Import' }).click()
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/^The statement was not imported.+GB29NWBK60161331926819.+HTTP 400 · invalid_requestRequest id [0-9a-f-]{36}$/)
    expect(problems).toEqual([])
    await context.close()
  })
})
