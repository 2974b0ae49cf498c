import { beforeAll, describe, expect, it } from 'vitest'
import { dashboardUnderTest } from './support/dashboard-under-test.js'
import { counterpartyAccount, euroAccount, newCreditTransfer, newPerson, signIn, type Person } from './support/kassa-server.js'

/**
 * The shared pieces every list page is built from (the Payments page's list of credit transfers uses them):
 * paging and filters in the URL, the empty state, and the error state with the request id.
 */
const { server, openProfile } = dashboardUnderTest()
let ada: Person

beforeAll(async () => {
  ada = await newPerson(server, 'Ada Lovelace', 'admin')
  const sourceId = await euroAccount(server.api)
  const destinationId = await counterpartyAccount(server.api, 'Nordlicht Consulting GmbH')
  for (const number of [1, 2, 3, 4, 5]) {
    await newCreditTransfer(server.api, { reference: `Invoice ${number}`, value: number * 100_00, sourceId, destinationId })
  }
})

const references = async (page: import('playwright-core').Page) =>
  (await page.getByRole('table', { name: 'Credit transfers' }).getByRole('rowheader').allTextContents()).sort()

describe('lists', () => {
  it('page in the URL: a page is an address to share, Back goes to the one before, a filter starts again at the first', async () => {
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/payments?limit=2`)
    await expect.poll(() => references(page)).toHaveLength(2)
    const first = await references(page)
    const pages = page.getByRole('navigation', { name: 'Pages' })
    expect(await pages.textContent()).toContain('2 rows on this page')

    await pages.getByRole('link', { name: 'Next page' }).click()
    // While the next page loads the table is gone (no rows, also "not the first page"): wait for rows that differ.
    await expect.poll(() => references(page)).toSatisfy((rows: string[]) => rows.length > 0 && rows.join() !== first.join())
    const second = await references(page)
    expect(second).toHaveLength(2)
    const address = page.url()
    expect(new URL(address).searchParams.get('limit')).toBe('2')
    expect(new URL(address).searchParams.get('token')).toBeTruthy()

    // The address alone shows the same page, in another browser profile (signed in there too).
    const other = await openProfile()
    await signIn(other.page, server, ada)
    await other.page.goto(address)
    await expect.poll(() => references(other.page)).toEqual(second)
    await other.context.close()

    await page.goBack()
    await expect.poll(() => references(page)).toEqual(first)
    await page.goForward()
    await expect.poll(() => references(page)).toEqual(second)
    await pages.getByRole('link', { name: 'Next page' }).click()
    await expect.poll(() => references(page)).toHaveLength(1)
    expect(await pages.getByRole('link', { name: 'Next page' }).count()).toBe(0)
    const seen = [...first, ...second, ...(await references(page))].sort()
    expect(seen).toEqual(['Invoice 1', 'Invoice 2', 'Invoice 3', 'Invoice 4', 'Invoice 5'])

    // A filter belongs in the URL too, and a page token belongs to the filters it was made with: back to page one.
    await page.getByLabel('Status').selectOption('REJECTED')
    await page.getByText('No credit transfers are rejected').waitFor()
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ limit: '2', status: 'REJECTED' })
    expect(problems).toEqual([])
    await context.close()
  })

  it("shows the API's refusal with its request id where a role may not read, and Try again", async () => {
    await server.api.POST('/iam/v2/roles', { body: { name: 'balances only', permissions: ['accounts:read', 'account_balances:read'] } })
    const grace = await newPerson(server, 'Grace Hopper', 'balances only')
    const { context, page, problems } = await openProfile()
    await signIn(page, server, grace)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click()
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/^Could not load this page.+HTTP 403 · forbiddenRequest id [0-9a-f-]{36}Try again$/)
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect.poll(() => page.getByRole('status').count()).toBe(0)
    expect(await alert.textContent()).toContain('HTTP 403')
    expect(problems).toEqual([])
    await context.close()
  })
})
