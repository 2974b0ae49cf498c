import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { IBANS } from '../support/fixtures.js'
import { PHONE, screenshot } from './support/browser.js'
import { dashboardUnderTest } from './support/dashboard-under-test.js'
import { counterpartyAccount, euroAccount, newCreditTransfer, newPerson, signIn, type Person } from './support/kassa-server.js'

/**
 * The Payments pages: a credit transfer created through the form, its detail page following it to
 * RECONCILED, and the lists' filters in the address. Ada, an admin, works in the browser; the Owner's
 * access key approves through the API.
 */
const { server, openProfile } = dashboardUnderTest()
let ada: Person
let sourceId: string
let bankToday: string
/** The transfer the form creates (first test), followed by the second. */
let created: { id: string; reference: string }

beforeAll(async () => {
  ada = await newPerson(server, 'Ada Lovelace', 'admin')
  sourceId = await euroAccount(server.api)
  bankToday = (await server.api.GET('/v1/sandbox/clock')).data.today
  await counterpartyAccount(server.api, 'Nordlicht Consulting GmbH', IBANS.de)
})

async function creditTransfer(id: string) {
  return (await server.api.GET('/payments/v2/credit-transfers/{id}', { params: { path: { id } } })).data
}

/** The texts of the detail page's timeline, one entry per event: its name first. */
const timeline = (page: Page) => page.getByRole('list', { name: 'Status timeline' }).getByRole('listitem').allTextContents()

/** The references of the credit transfers listed, in order. */
const references = (page: Page) => page.getByRole('table', { name: 'Credit transfers' }).getByRole('rowheader').allTextContents()

describe('Payments', () => {
  it('creates a credit transfer through the form — amount read exactly, date from the bank, refusals at their fields — and opens it', async () => {
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click()
    await page.getByRole('link', { name: 'New credit transfer' }).click()
    await page.getByRole('heading', { level: 1, name: 'New credit transfer' }).waitFor()

    // The date starts at the sandbox bank's business date; the own account is chosen from the accounts list.
    expect(await page.getByLabel('Execution date').inputValue()).toBe(bankToday)
    expect(await page.getByLabel('From account').inputValue()).toBe(sourceId)
    await page.getByLabel('Counterparty', { exact: true }).fill('Nordl')
    await page.getByRole('list', { name: 'Matching counterparties' }).getByRole('button', { name: /Nordlicht Consulting GmbH/ }).click()
    // The counterparty's only account is chosen for it.
    expect(await page.getByLabel('Counterparty account').locator('option:checked').textContent()).toBe('DE89 3704 0044 0532 0130 00')

    // What the form can tell itself, it tells before sending: an amount that could be read two ways.
    await page.getByLabel('Amount').fill('1,25,0.50')
    await page.getByLabel('Reference').fill('Zahlung für Müller')
    await page.getByRole('button', { name: 'Create' }).click()
    const amount = page.getByLabel('Amount')
    expect(await amount.getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByText('Write the amount as digits, like 1,250.50.').count()).toBe(1)

    // What only the API knows (SEPA's character set) comes back at its field, with the request id above.
    await amount.fill('1,250.29')
    await page.getByRole('button', { name: 'Create' }).click()
    const reference = page.getByLabel('Reference')
    await expect.poll(() => reference.getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByText("Reference may only hold the SEPA characters a-z A-Z 0-9 / - ? : ( ) . , ' + and space").count()).toBe(1)
    expect(await page.getByRole('alert').textContent()).toMatch(/^The credit transfer was not created.+HTTP 400 · invalid_requestRequest id [0-9a-f-]{36}$/)
    expect(await amount.getAttribute('aria-invalid')).toBeNull()
    // The first field in error takes focus, so its message is read first.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await reference.getAttribute('id'))
    const none = await server.api.GET('/payments/v2/credit-transfers', { params: { query: { accountId: sourceId } } })
    expect(none.data.items).toEqual([])

    await reference.fill('Invoice 2026-0042')
    await screenshot(page, 'payments-new-credit-transfer')
    await page.getByRole('button', { name: 'Create' }).click()
    await page.getByRole('heading', { level: 1, name: 'Invoice 2026-0042' }).waitFor()

    const id = new URL(page.url()).pathname.split('/').pop()!
    expect(new URL(page.url()).pathname).toBe(`/dashboard/payments/credit-transfers/${id}`)
    const payment = await creditTransfer(id)
    // 1,250.29 is 125029 cents exactly (1250.29 * 100 is 125028.99999999999 in floating point).
    expect(payment).toMatchObject({ amount: { currency: 'EUR', value: 125029 }, date: bankToday, scheme: 'SCT', reference: 'Invoice 2026-0042', status: 'CREATED', creatorUserId: ada.userId })
    expect(payment.source.id).toBe(sourceId)
    created = { id, reference: payment.reference }

    const summary = page.getByRole('region', { name: 'Credit transfer' })
    expect(await summary.textContent()).toContain('€1,250.29')
    expect(await summary.getByRole('status').textContent()).toBe('Created')
    expect(await summary.textContent()).toContain('Nordlicht Consulting GmbHDE89 3704 0044 0532 0130 00')
    // People are named once the organization's users are read (api/directory.tsx), a moment after sign-in.
    await expect.poll(() => summary.textContent()).toContain('by Ada Lovelace')
    expect(await page.getByRole('region', { name: 'Approval steps' }).getByRole('listitem').allTextContents()).toEqual(['Waiting for any owner'])
    expect((await timeline(page)).map((entry) => entry.split(/\d/)[0])).toEqual(['Created'])
    expect((await timeline(page))[0]).toMatch(/by Ada Lovelace$/)
    expect(await page.getByRole('region', { name: 'Bank transaction' }).textContent()).toContain('Not reconciled yet')
    expect(problems).toEqual([])
    await context.close()
  })

  it('follows the payment on its detail page to RECONCILED once the Owner approves it through the API, with the bank transaction', async () => {
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/payments/credit-transfers/${created.id}`)
    await page.getByRole('heading', { level: 1, name: created.reference }).waitFor()

    const payment = await creditTransfer(created.id)
    await server.api.POST('/payments/v2/credit-transfers/{id}:approve', {
      params: { path: { id: created.id } },
      body: { approvalStepId: payment.approvalSteps[0]!.id },
    })
    // No reload: the page reads a payment on its way again until it rests.
    const status = page.getByRole('region', { name: 'Credit transfer' }).getByRole('status')
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('Reconciled')
    const names = (await timeline(page)).map((entry) => entry.split(/\d/)[0])
    expect(names).toEqual(['Created', 'Approved', 'Waiting to be sent', 'Sent to the bank', 'Accepted by the bank', 'Executed', 'Reconciled'])
    const reconciled = await creditTransfer(created.id)
    expect(reconciled.status).toBe('RECONCILED')
    const steps = await page.getByRole('region', { name: 'Approval steps' }).getByRole('listitem').allTextContents()
    expect(steps).toHaveLength(1)
    expect(steps[0]).toMatch(/^Approved by .+, \d\d:\d\d$/)

    // The bank transaction it was reconciled to, as the transactions API has it.
    const { data: transaction } = await server.api.GET('/financial-data/v2/transactions/{id}', { params: { path: { id: reconciled.attachedTransactions[0]!.id } } })
    const bank = page.getByRole('region', { name: 'Bank transaction' })
    await expect.poll(() => bank.textContent()).toContain(transaction.references.entryReference)
    expect(transaction.amount.value).toBe(-125029)
    expect(await bank.textContent()).toContain('-€1,250.29')
    await screenshot(page, 'payments-credit-transfer-reconciled')

    await bank.getByRole('link', { name: 'Show among the account’s transactions' }).click()
    const row = page.getByRole('table', { name: 'Transactions' }).getByRole('row').filter({ hasText: '-€1,250.29' })
    await row.waitFor()
    expect(await row.getByRole('link', { name: 'Credit transfer' }).getAttribute('href')).toBe(`/dashboard/payments/credit-transfers/${created.id}`)
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ from: transaction.date, to: transaction.date })
    expect(problems).toEqual([])
    await context.close()
  })

  it('keeps the filters in the address: status, account, counterparty and dates survive a reload and a change of tab', async () => {
    const vanDijk = await counterpartyAccount(server.api, 'Van Dijk Logistics B.V.', IBANS.nl)
    const bureau = await counterpartyAccount(server.api, 'Bureau Fournitures SARL', IBANS.fr)
    await newCreditTransfer(server.api, { reference: 'Freight July', value: 48_900_00, sourceId, destinationId: vanDijk })
    await newCreditTransfer(server.api, { reference: 'Freight August', value: 12_100_00, sourceId, destinationId: vanDijk })
    await newCreditTransfer(server.api, { reference: 'PO 7781 office supplies', value: 842_19, sourceId, destinationId: bureau })

    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/payments`)
    await expect.poll(async () => (await references(page)).sort()).toEqual(['Freight August', 'Freight July', 'Invoice 2026-0042', 'PO 7781 office supplies'])

    await page.getByLabel('Status').selectOption('CREATED')
    await expect.poll(async () => (await references(page)).sort()).toEqual(['Freight August', 'Freight July', 'PO 7781 office supplies'])
    await page.getByLabel('Account').selectOption(sourceId)
    // The counterparty is found and chosen from the keyboard: type, arrow down to the match, Enter.
    await page.getByLabel('Counterparty', { exact: true }).fill('Van D')
    await page.getByRole('list', { name: 'Matching counterparties' }).waitFor()
    await page.keyboard.press('ArrowDown')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Van Dijk Logistics B.V.NL91 ABNA 0417 1643 00')
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await references(page)).sort()).toEqual(['Freight August', 'Freight July'])
    await page.getByLabel('Date from').fill(bankToday)
    await page.getByLabel('Date to').fill(bankToday)
    await expect.poll(() => new URL(page.url()).searchParams.get('to')).toBe(bankToday)
    const { data: counterparties } = await server.api.GET('/payments/v2/counterparties', { params: { query: { query: 'Van Dijk' } } })
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      status: 'CREATED',
      account: sourceId,
      counterparty: counterparties.items[0]!.id,
      from: bankToday,
      to: bankToday,
    })
    await screenshot(page, 'payments')

    await page.reload()
    await expect.poll(async () => (await references(page)).sort()).toEqual(['Freight August', 'Freight July'])
    expect(await page.getByLabel('Status').inputValue()).toBe('CREATED')
    expect(await page.getByLabel('Account').inputValue()).toBe(sourceId)
    await expect.poll(() => page.getByLabel('Counterparty', { exact: true }).inputValue()).toBe('Van Dijk Logistics B.V.')
    expect(await page.getByLabel('Date from').inputValue()).toBe(bankToday)
    expect(await page.getByLabel('Date to').inputValue()).toBe(bankToday)

    // Typing again drops the chosen counterparty from the filters and keeps what was typed, to search with.
    const box = page.getByLabel('Counterparty', { exact: true })
    await box.fill('Bureau')
    await expect.poll(() => new URL(page.url()).searchParams.get('counterparty')).toBeNull()
    expect(await box.inputValue()).toBe('Bureau')
    await page.getByRole('list', { name: 'Matching counterparties' }).getByRole('button', { name: /Bureau Fournitures SARL/ }).waitFor()
    // Escape closes the matches; the filters stand as they are.
    await box.press('Escape')
    await expect.poll(() => page.getByRole('list', { name: 'Matching counterparties' }).count()).toBe(0)
    await box.fill('Van D')
    await page.getByRole('button', { name: /Van Dijk Logistics B\.V\./ }).click()
    await expect.poll(async () => (await references(page)).sort()).toEqual(['Freight August', 'Freight July'])

    // The other kind's tab keeps the filters; it has no direct debits to show for them.
    await page.getByRole('navigation', { name: 'Payment kinds' }).getByRole('link', { name: 'Direct debits' }).click()
    await page.getByText('No direct debits match these filters').waitFor()
    expect(new URL(page.url()).pathname).toBe('/dashboard/payments/direct-debits')
    expect(new URL(page.url()).searchParams.get('counterparty')).toBe(counterparties.items[0]!.id)
    await page.getByRole('link', { name: 'Clear filters' }).click()
    await page.getByText('No direct debits yet').waitFor()
    expect(new URL(page.url()).search).toBe('')
    expect(problems).toEqual([])
    await context.close()
  })

  it("filters by amount typed in the reader's writing, in the currency beside it, kept in the address as plain decimals", async () => {
    const destinationId = await counterpartyAccount(server.api, 'Hausverwaltung Berger KG', IBANS.de)
    await newCreditTransfer(server.api, { reference: 'Rent March', value: 2_300_00, sourceId, destinationId })
    await newCreditTransfer(server.api, { reference: 'Service charge March', value: 2_450_50, sourceId, destinationId })
    await newCreditTransfer(server.api, { reference: 'Deposit top-up', value: 2_450_51, sourceId, destinationId })
    const { data: accounts } = await server.api.GET('/financial-data/v2/accounts')

    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/payments`)
    await expect.poll(() => references(page)).toContain('Deposit top-up')
    // Without an account chosen, the amounts are in the organization's first account's currency unless another is chosen.
    expect(await page.getByLabel('Amount currency').inputValue()).toBe(accounts.items[0]!.currency)
    await page.getByLabel('Amount currency').selectOption('EUR')
    await page.getByLabel('Amount from (EUR)').fill('2,300')
    await page.getByLabel('Amount from (EUR)').press('Enter')
    await page.getByLabel('Amount to (EUR)').fill('2,450.50')
    await page.getByLabel('Amount to (EUR)').press('Enter')
    // Both bounds count (inclusive); a cent more is out.
    await expect.poll(async () => (await references(page)).sort()).toEqual(['Rent March', 'Service charge March'])
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ min: '2300.00', max: '2450.50', currency: 'EUR' })
    await screenshot(page, 'payments-amount-filter')

    await page.reload()
    await expect.poll(async () => (await references(page)).sort()).toEqual(['Rent March', 'Service charge March'])
    expect(await page.getByLabel('Amount from (EUR)').inputValue()).toBe('2300.00')
    expect(await page.getByLabel('Amount to (EUR)').inputValue()).toBe('2450.50')

    // The address alone shows the same list to a reader in Germany, the bounds in their writing.
    const german = await openProfile({ locale: 'de-DE' })
    await signIn(german.page, server, ada)
    await german.page.goto(page.url())
    await expect.poll(async () => (await references(german.page)).sort()).toEqual(['Rent March', 'Service charge March'])
    expect(await german.page.getByLabel('Amount to (EUR)').inputValue()).toBe('2450,50')
    expect(german.problems).toEqual([])
    await german.context.close()

    // The same figures in another currency match none of these euro payments.
    await page.getByLabel('Amount currency').selectOption('SEK')
    await page.getByText('No credit transfers match these filters').waitFor()
    expect(new URL(page.url()).searchParams.get('currency')).toBe('SEK')
    expect(await page.getByLabel('Amount from (SEK)').inputValue()).toBe('2300.00')

    await page.getByRole('link', { name: 'Clear filters' }).click()
    await expect.poll(() => references(page)).toContain('Deposit top-up')
    expect(new URL(page.url()).search).toBe('')
    expect(await page.getByLabel('Amount from (EUR)').inputValue()).toBe('')
    expect(await page.getByLabel('Amount to (EUR)').inputValue()).toBe('')
    expect(problems).toEqual([])
    await context.close()
  })

  it('lists direct debits on their own tab and opens one: collected from the counterparty under its mandate', async () => {
    const customer = await counterpartyAccount(server.api, 'Hansen Fitness GmbH', IBANS.de)
    const { data: mandate } = await server.api.POST('/payments/v2/mandates', {
      body: { externalAccountId: customer, scheme: 'SDD_CORE', creditorReference: 'DE98ZZZ09999999999', mandateReference: 'HF-2025-17', signatureDate: '2025-01-15' },
    })
    const { data: debit } = await server.api.POST('/payments/v2/direct-debits', {
      body: {
        amount: { currency: 'EUR', value: 49_90 },
        date: bankToday,
        scheme: 'SDD_CORE',
        source: { type: 'EXTERNAL_ACCOUNT', id: customer },
        destination: { type: 'ACCOUNT', id: sourceId },
        reference: 'Membership November',
        mandateId: mandate.id,
      },
    })
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/payments/direct-debits`)
    const row = page.getByRole('table', { name: 'Direct debits' }).getByRole('row', { name: /Membership November/ })
    await row.waitFor()
    expect((await row.getByRole('cell').allTextContents()).slice(1, 4)).toEqual(['Hansen Fitness GmbHDE89 3704 0044 0532 0130 00', expect.stringMatching(/^DE\d\d/), '€49.90'])
    await row.getByRole('link', { name: 'Membership November' }).click()
    await page.getByRole('heading', { level: 1, name: 'Membership November' }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/dashboard/payments/direct-debits/${debit.id}`)
    const summary = await page.getByRole('region', { name: 'Direct debit' }).textContent()
    expect(summary).toContain('FromHansen Fitness GmbHDE89 3704 0044 0532 0130 00')
    expect(summary).toContain('MandateHF-2025-17Creditor DE98ZZZ09999999999')
    expect(problems).toEqual([])
    await context.close()
  })

  it('fits a phone: the detail page with its facts stacked, the list as cards', async () => {
    const { context, page, problems } = await openProfile({ viewport: PHONE })
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/payments/credit-transfers/${created.id}`)
    await page.getByRole('heading', { level: 1, name: created.reference }).waitFor()
    await page.getByRole('region', { name: 'Bank transaction' }).getByRole('link').waitFor()
    // Nothing wider than the screen: no sideways scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await screenshot(page, 'payments-credit-transfer-phone')

    // The list too: each row a card, the filters stacked.
    await page.goto(`${server.origin}/dashboard/payments`)
    await page.getByRole('table', { name: 'Credit transfers' }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await screenshot(page, 'payments-phone')
    expect(problems).toEqual([])
    await context.close()
  })
})
