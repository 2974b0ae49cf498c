import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IBANS } from '../support/fixtures.js'
import { isSigned, startReceiver, type Receiver } from '../webhooks/receiver.js'
import { PHONE, screenshot } from './support/browser.js'
import { dashboardUnderTest } from './support/dashboard-under-test.js'
import { counterpartyAccount, eventually, newPerson, signIn, type Person } from './support/kassa-server.js'
import { startWebhookKassaServer } from './support/webhook-server.js'

/**
 * The Webhooks pages against an endpoint on loopback (a receiver in this process), on a server that
 * allows loopback targets and gives a failing delivery 1.5 seconds of retries.
 */
const { server, openProfile } = dashboardUnderTest(() => startWebhookKassaServer(1_500))
let receiver: Receiver
let ada: Person

beforeAll(async () => {
  receiver = await startReceiver()
  ada = await newPerson(server, 'Ada Lovelace', 'admin')
})
afterAll(async () => {
  await receiver?.close()
})

async function theWebhook() {
  const { data } = await server.api.GET('/v1/webhooks')
  expect(data.items).toHaveLength(1)
  return data.items[0]!
}

async function deliveries(webhookId: string) {
  return (await server.api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: webhookId } } })).data.items
}

async function openWebhook(page: Page, id: string) {
  await page.goto(`${server.origin}/dashboard/webhooks/${id}`)
  await page.getByRole('heading', { level: 1, name: 'ERP payment status' }).waitFor()
}

const deliveryRows = (page: Page) => page.getByRole('table', { name: 'Deliveries' }).getByRole('row')

describe('Webhooks', () => {
  it("refuses a private address with the API's own reason, beside the URL", async () => {
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/webhooks`)
    await page.getByText('No webhooks yet').waitFor()
    await page.getByRole('link', { name: 'New webhook' }).click()
    await page.getByLabel('URL').fill('https://10.1.2.3/hooks')
    await page.getByRole('button', { name: 'Create' }).click()

    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/The webhook was not created.*is a private address; webhooks may only target public addresses.*HTTP 400.*Request id/)
    expect(await page.getByText('is a private address; webhooks may only target public addresses', { exact: true }).count()).toBe(1)
    expect(await page.getByLabel('URL').getAttribute('aria-invalid')).toBe('true')
    await screenshot(page, 'webhook-new-refused')
    expect((await server.api.GET('/v1/webhooks')).data.items).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  })

  it('creates a webhook to a loopback receiver, shows its signing key once, and delivers a test event signed with it', async () => {
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click()
    await page.getByRole('link', { name: 'New webhook' }).click()
    await page.getByLabel('Name').fill('ERP payment status')
    await page.getByLabel('URL').fill(receiver.url)
    await page.getByRole('checkbox', { name: 'Counterparties' }).check()
    expect(await page.getByRole('checkbox', { name: 'Credit transfers' }).isChecked()).toBe(true)
    await page.getByLabel('Only these events of credit transfers').fill('FULLY_APPROVED, executed')
    await screenshot(page, 'webhook-new')
    await page.getByRole('button', { name: 'Create' }).click()

    const shown = page.getByRole('region', { name: 'Webhook created: its signing key' })
    const signingKey = await shown.getByLabel('Signing key', { exact: true }).inputValue()
    expect(Buffer.from(signingKey, 'base64')).toHaveLength(32)
    const webhook = await theWebhook()
    expect(webhook).toMatchObject({
      name: 'ERP payment status',
      url: receiver.url,
      filter: [
        { resource: 'counterparties', apiVersion: 2 },
        { resource: 'credit_transfers', apiVersion: 2, events: ['FULLY_APPROVED', 'EXECUTED'] },
      ],
    })
    await shown.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('heading', { level: 1, name: 'ERP payment status' }).waitFor()
    // Shown once: the webhook's page has the key's id, never its secret.
    expect(await page.content()).not.toContain(signingKey)

    await page.getByRole('button', { name: 'Send test event' }).click()
    await page.getByRole('status').filter({ hasText: 'Test event sent' }).waitFor()
    await receiver.waitFor((received) => received.length === 1)
    expect(receiver.received[0]!.json).toMatchObject({ event: { name: 'TEST' } })
    expect(await isSigned(receiver.received[0]!, [signingKey])).toBe(true)
    // The log follows the pending delivery on its own until the endpoint's 200 is in.
    const row = deliveryRows(page).filter({ hasText: 'Counterparties: TEST' })
    await expect.poll(() => row.getByRole('cell').nth(0).textContent()).toBe('Delivered')
    // The attempt, and under Response (folded) what the receiver answered: "ok".
    expect(await row.getByRole('cell').nth(1).textContent()).toMatch(/^\d\d:\d\d · HTTP 200 · \d+ msResponseok$/)
    await screenshot(page, 'webhook')
    expect(problems).toEqual([])
    await context.close()
  })

  it("shows each failed attempt with the endpoint's status and answer, filters by status in the URL, and Redeliver sends it again", async () => {
    const webhook = await theWebhook()
    // Markup in an answer longer than the 1 KiB an attempt keeps: shown as text, and said to be perhaps cut.
    const answer = `<h1>Ledger locked</h1><script>alert(1)</script>${' retry later'.repeat(200)}`
    receiver.respond = () => ({ status: 500, body: answer })
    await counterpartyAccount(server.api, 'Nordlicht Consulting GmbH', IBANS.de)
    const failed = await eventually(
      () => deliveries(webhook.id),
      (items) => items.some((delivery) => delivery.status === 'FAILED'),
      'a failed delivery',
    )
    const delivery = failed.find((item) => item.status === 'FAILED')!
    // Retried every 20–100 ms for 1.5 s: more attempts than the three shown in full.
    expect(delivery.attempts.length).toBeGreaterThan(4)

    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await openWebhook(page, webhook.id)
    await page.getByLabel('Status').selectOption({ label: 'Failed' })
    await expect.poll(() => deliveryRows(page).count()).toBe(2)
    expect(new URL(page.url()).searchParams.get('status')).toBe('FAILED')
    const row = deliveryRows(page).filter({ hasText: 'Counterparties: CREATED' })
    expect(await row.getByRole('cell').nth(0).textContent()).toBe('Failed')
    // The latest three attempts, the earlier ones folded away until asked for.
    const attempts = row.getByRole('listitem')
    expect(await attempts.count()).toBe(3)
    await row.getByText(`${delivery.attempts.length - 3} earlier attempts`).click()
    expect(await attempts.count()).toBe(delivery.attempts.length)
    const kept = answer.slice(0, 1_024)
    const cut = 'Only the first 1 KiB of an answer is kept: this one may have been longer.'
    for (const attempt of await attempts.allTextContents()) {
      expect(attempt).toMatch(/^\d\d:\d\d · HTTP 500 · \d+ ms/)
      expect(attempt.replace(/^\d\d:\d\d · HTTP 500 · \d+ ms/, '')).toBe(`Response${kept}${cut}`)
    }
    const latest = attempts.last()
    const shown = latest.locator('pre')
    expect(await shown.isVisible()).toBe(false)
    await latest.getByText('Response', { exact: true }).click()
    expect(await shown.isVisible()).toBe(true)
    expect(await shown.textContent()).toBe(kept)
    expect(await latest.getByText(cut).isVisible()).toBe(true)
    // Text, never markup: no heading or script came into the page from the endpoint.
    expect(await row.locator('h1, script').count()).toBe(0)
    await screenshot(page, 'webhook-deliveries-failed')

    receiver.respond = () => 200
    await page.getByLabel('Status').selectOption({ label: 'Any status' })
    await row.getByRole('button', { name: /^Redeliver CREATED/ }).click()
    await expect.poll(() => row.getByRole('cell').nth(0).textContent()).toBe('Delivered')
    expect((await row.getByRole('listitem').allTextContents()).at(-1)).toMatch(/HTTP 200/)
    const [redelivered] = (await deliveries(webhook.id)).filter((item) => item.id === delivery.id)
    expect(redelivered).toMatchObject({ status: 'DELIVERED' })
    expect(redelivered!.attempts.at(-1)!.statusCode).toBe(200)
    expect(problems).toEqual([])
    await context.close()
  })

  it('rotates the signing key: a second key shown once, no third, the old one retired after confirming', async () => {
    const webhook = await theWebhook()
    const [oldKey] = webhook.keys
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    await openWebhook(page, webhook.id)

    await page.getByRole('button', { name: 'Add signing key' }).click()
    const shown = page.getByRole('region', { name: 'New signing key' })
    const newKey = await shown.getByLabel('Signing key', { exact: true }).inputValue()
    const keyRows = page.getByRole('table', { name: 'Signing keys' }).getByRole('rowheader')
    await expect.poll(() => keyRows.count()).toBe(2)
    expect(await page.getByRole('button', { name: 'Add signing key' }).isDisabled()).toBe(true)
    await screenshot(page, 'webhook-keys')
    await shown.getByRole('button', { name: 'Done' }).click()

    await page.getByRole('button', { name: `Retire key ${oldKey!.id}` }).click()
    await page.getByRole('dialog', { name: 'Retire signing key' }).getByRole('button', { name: 'Retire key' }).click()
    await expect.poll(() => keyRows.allTextContents()).toEqual([expect.not.stringContaining(oldKey!.id)])
    expect(await page.getByText('In use (the only key)').count()).toBe(1)
    const after = await theWebhook()
    expect(after.keys.map((key) => key.id)).not.toContain(oldKey!.id)
    expect(after.keys).toHaveLength(1)

    // What is delivered now is signed with the new key alone.
    const before = receiver.received.length
    await page.getByRole('button', { name: 'Send test event' }).click()
    await receiver.waitFor((received) => received.length > before)
    const latest = receiver.received.at(-1)!
    expect(await isSigned(latest, [newKey])).toBe(true)
    expect(problems).toEqual([])
    await context.close()
  })

  it('lists the webhooks, on a laptop and on a phone', async () => {
    const { context, page, problems } = await openProfile({ viewport: PHONE })
    await signIn(page, server, ada)
    await page.goto(`${server.origin}/dashboard/webhooks`)
    const names = page.getByRole('table', { name: 'Webhooks' }).getByRole('rowheader')
    await expect.poll(() => names.allTextContents()).toEqual([`ERP payment status${receiver.url}`])
    await screenshot(page, 'webhooks-phone')
    await page.setViewportSize({ width: 1280, height: 800 })
    await screenshot(page, 'webhooks')
    expect(problems).toEqual([])
    await context.close()
  })
})
