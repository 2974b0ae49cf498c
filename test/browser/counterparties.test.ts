import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { KassaApiError } from '../../packages/client/src/index.js'
import { IBANS } from '../support/fixtures.js'
import { PHONE, screenshot } from './support/browser.js'
import { dashboardUnderTest } from './support/dashboard-under-test.js'
import { counterpartyAccount, newPerson, signIn, type Person } from './support/kassa-server.js'

/** The Counterparties pages: list and search, "New counterparty" with IBANs checked as typed, edit, delete. */
const { server, openProfile } = dashboardUnderTest()
let ada: Person

/** An IBAN whose check digits match (mod 97) but whose length is wrong for Germany: only the API knows. */
const DE_WRONG_LENGTH = 'DE543704004405320130001'

beforeAll(async () => {
  ada = await newPerson(server, 'Ada Lovelace', 'admin')
  await counterpartyAccount(server.api, 'Nordlicht Consulting GmbH', IBANS.de)
  await counterpartyAccount(server.api, 'Bureau Fournitures SARL', IBANS.fr)
  await counterpartyAccount(server.api, 'Van Dijk Logistics B.V.', IBANS.nl)
})

async function findByName(legalName: string) {
  const { data } = await server.api.GET('/payments/v2/counterparties', { params: { query: { query: legalName } } })
  return data.items.filter((counterparty) => counterparty.legalName === legalName)
}

async function openCounterparty(page: Page, id: string, name: string) {
  await page.goto(`${server.origin}/dashboard/counterparties/${id}`)
  await page.getByRole('heading', { level: 1, name }).waitFor()
}

const legalNames = (page: Page) => page.getByRole('table', { name: 'Counterparties' }).getByRole('rowheader').getByRole('link').allTextContents()

describe('Counterparties', () => {
  it('creates a counterparty with two accounts, each IBAN checked as it is typed, and the API finds it', async () => {
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Counterparties' }).click()
    await page.getByRole('link', { name: 'New counterparty' }).click()
    await page.getByRole('heading', { level: 1, name: 'New counterparty' }).waitFor()

    await page.getByLabel('Legal name').fill('Müller & Söhne Maschinenbau KG')
    await page.getByLabel('Party type').selectOption({ label: 'Company' })
    await page.getByLabel('Alias', { exact: true }).fill('Müller')
    const first = page.getByRole('group', { name: 'Account 1' })
    // One digit mistyped: the checksum says so before anything is sent.
    await first.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 01')
    expect(await first.getByText('The check digits do not match').count()).toBe(1)
    expect(await first.getByLabel('IBAN').getAttribute('aria-invalid')).toBe('true')
    await screenshot(page, 'counterparty-new-iban-checked')
    await first.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00')
    expect(await first.getByText('DE · 22 characters · check digits match').count()).toBe(1)
    await first.getByLabel('Account alias').fill('Main account')
    await page.getByRole('button', { name: 'Add account' }).click()
    await page.getByRole('group', { name: 'Account 2' }).getByLabel('IBAN').fill('fr14 2004 1010 0505 0001 3m02 606')
    await page.getByRole('button', { name: 'Create' }).click()

    await page.getByRole('heading', { level: 1, name: 'Müller & Söhne Maschinenbau KG' }).waitFor()
    const accounts = await page.getByRole('table', { name: 'Accounts' }).getByRole('rowheader').allTextContents()
    expect(accounts).toEqual(['DE89 3704 0044 0532 0130 00', 'FR14 2004 1010 0505 0001 3M02 606'])

    const [created, ...others] = await findByName('Müller & Söhne Maschinenbau KG')
    expect(others).toEqual([])
    expect(created).toMatchObject({ partyType: 'COMPANY', alias: 'Müller' })
    expect(created!.accounts.map((account) => [account.market, account.identifiers[0]!.number, account.alias])).toEqual([
      ['DE', 'DE89370400440532013000', 'Main account'],
      ['FR', 'FR1420041010050500013M02606', undefined],
    ])
    expect(page.url()).toBe(`${server.origin}/dashboard/counterparties/${created!.id}`)
    await screenshot(page, 'counterparty')
    expect(problems).toEqual([])
    await context.close()
  })

  it("shows the API's verdict beside the IBAN it refuses, though the checksum matched, and creates nothing", async () => {
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/counterparties/new`)
    await page.getByLabel('Legal name').fill('Wrong Length GmbH')
    const iban = page.getByRole('group', { name: 'Account 1' }).getByLabel('IBAN')
    await iban.fill(DE_WRONG_LENGTH)
    expect(await page.getByText('check digits match').count()).toBe(1)
    await page.getByRole('button', { name: 'Create' }).click()

    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/The counterparty was not created.*IBAN has the wrong length for its country.*HTTP 400 · invalid_request.*Request id [0-9a-f-]{36}/)
    const describedBy = (await iban.getAttribute('aria-describedby'))!.split(' ')
    const fieldError = page.locator(`[id="${describedBy.at(-1)}"]`)
    expect(await fieldError.textContent()).toBe('IBAN has the wrong length for its country')
    expect(await findByName('Wrong Length GmbH')).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  })

  it('searches by name and by a pasted IBAN, with the search in the URL; a search of two letters is not sent', async () => {
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/counterparties`)
    await expect.poll(() => legalNames(page)).toContain('Van Dijk Logistics B.V.')
    const search = page.getByRole('search', { name: 'Search counterparties' })

    await search.getByLabel('Search').fill('Bu')
    await search.getByRole('button', { name: 'Search', exact: true }).click()
    expect(await search.getByText('Type at least 3 characters.').count()).toBe(1)
    expect(new URL(page.url()).searchParams.get('query')).toBeNull()

    await search.getByLabel('Search').fill('Fournitures')
    await search.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => legalNames(page)).toEqual(['Bureau Fournitures SARL'])
    expect(new URL(page.url()).searchParams.get('query')).toBe('Fournitures')

    await search.getByLabel('Search').fill('NL91 ABNA 0417 1643 00')
    await search.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => legalNames(page)).toEqual(['Van Dijk Logistics B.V.'])

    // The address alone shows the same search.
    await page.goto(`${server.origin}/dashboard/counterparties?query=Nordlicht`)
    await expect.poll(() => legalNames(page)).toEqual(['Nordlicht Consulting GmbH'])
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('Nordlicht')

    await page.goto(`${server.origin}/dashboard/counterparties?query=nobody-by-this-name`)
    await page.getByText('No counterparty matches “nobody-by-this-name”').waitFor()
    await search.getByRole('button', { name: 'Clear search' }).click()
    await expect.poll(() => legalNames(page)).toContain('Nordlicht Consulting GmbH')
    expect(problems).toEqual([])
    await context.close()
  })

  it('edits the alias and metadata with the etag; a change made meanwhile is refused, and Reload shows it', async () => {
    await counterpartyAccount(server.api, 'Stadtwerke Nord AG', IBANS.de)
    const [counterparty] = await findByName('Stadtwerke Nord AG')
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await openCounterparty(page, counterparty!.id, 'Stadtwerke Nord AG')

    await page.getByRole('textbox', { name: 'Alias' }).fill('Stadtwerke')
    await page.getByRole('button', { name: 'Add metadata entry' }).click()
    const entry = page.getByRole('group', { name: 'Metadata entry 1' })
    await entry.getByLabel('Key').fill('erpSupplier')
    await entry.getByLabel('Value').fill('70042')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
    const saved = (await server.api.GET('/payments/v2/counterparties/{id}', { params: { path: { id: counterparty!.id } } })).data
    expect(saved).toMatchObject({ alias: 'Stadtwerke', metadata: { erpSupplier: '70042' }, version: counterparty!.version + 1 })
    expect(await page.getByRole('definition').first().textContent()).toBe('Company')

    // Someone else renames the alias through the API; this page still holds the etag it read.
    await server.api.PATCH('/payments/v2/counterparties/{id}', {
      params: { path: { id: counterparty!.id }, header: { 'if-match': saved.etag } },
      body: [{ op: 'replace', path: '/alias', value: 'SWN' }],
      headers: { 'Content-Type': 'application/json-patch+json' },
    })
    await page.getByRole('textbox', { name: 'Alias' }).fill('Stadtwerke Nord')
    await page.getByRole('button', { name: 'Save' }).click()
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/^Changed by someone else — reloadSomeone changed this since you opened it.*HTTP 412 · precondition_failed/)
    await screenshot(page, 'counterparty-changed-meanwhile')
    await alert.getByRole('button', { name: 'Reload' }).click()
    await expect.poll(() => page.getByRole('textbox', { name: 'Alias' }).inputValue()).toBe('SWN')
    const after = (await server.api.GET('/payments/v2/counterparties/{id}', { params: { path: { id: counterparty!.id } } })).data
    expect(after.alias).toBe('SWN')
    expect(problems).toEqual([])
    await context.close()
  })

  it('deletes only after confirming: Cancel keeps it, Delete removes it and its accounts (410 afterwards)', async () => {
    await counterpartyAccount(server.api, 'Short Lived Ltd', IBANS.gb)
    const [counterparty] = await findByName('Short Lived Ltd')
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await openCounterparty(page, counterparty!.id, 'Short Lived Ltd')

    await page.getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete counterparty' })
    expect(await dialog.textContent()).toContain('Short Lived Ltd and its account will be deleted')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    expect((await findByName('Short Lived Ltd')).length).toBe(1)

    await page.getByRole('button', { name: 'Delete' }).click()
    await screenshot(page, 'counterparty-delete-confirm')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('heading', { level: 1, name: 'Counterparties' }).waitFor()
    expect(await findByName('Short Lived Ltd')).toEqual([])
    const gone = await server.api.GET('/payments/v2/counterparties/{id}', { params: { path: { id: counterparty!.id } } }).catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(KassaApiError)
    expect((gone as KassaApiError).status).toBe(410)
    expect(problems).toEqual([])
    await context.close()
  })

  it('lists counterparties on a phone as cards, with their accounts', async () => {
    const { context, page, problems } = await openProfile({ viewport: PHONE })
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/counterparties`)
    await expect.poll(() => legalNames(page)).toContain('Nordlicht Consulting GmbH')
    await screenshot(page, 'counterparties-phone')
    await page.setViewportSize({ width: 1280, height: 800 })
    await screenshot(page, 'counterparties')
    expect(problems).toEqual([])
    await context.close()
  })
})
