import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { createKassaClient, KassaApiError } from '../../packages/client/src/index.js'
import { totpCode } from '../../src/iam/totp/totp.js'
import { PHONE, screenshot } from './support/browser.js'
import { dashboardUnderTest } from './support/dashboard-under-test.js'
import { euroAccount, newPerson, signIn, type Person } from './support/kassa-server.js'

/** The Settings pages, by the organization's Owner: users, roles, approval chains, access keys, their own sign-in. */
const { server, openProfile } = dashboardUnderTest()
let olivia: Person
let approverRoleId: string

beforeAll(async () => {
  olivia = await newPerson(server, 'Olivia Owner', 'owner')
  const { data: role } = await server.api.POST('/iam/v2/roles', {
    body: { name: 'Treasury approver', permissions: ['credit_transfers:read', 'credit_transfers:approve'] },
  })
  approverRoleId = role.id
})

async function signedIn(person: Person = olivia, viewport?: { width: number; height: number }) {
  const view = await openProfile(viewport ? { viewport } : {})
  await signIn(view.page, server, person)
  return view
}

async function openSettings(page: Page, part: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: part }).click()
  await page.getByRole('heading', { level: 1, name: part }).waitFor()
}

async function userByEmail(email: string) {
  const { data } = await server.api.GET('/iam/v2/users', { params: { query: { limit: 500 } } })
  return data.items.find((user) => user.email === email)
}

async function roleId(name: string) {
  const { data } = await server.api.GET('/iam/v2/roles', { params: { query: { limit: 500 } } })
  return data.items.find((role) => role.name === name)?.id
}

describe('Settings', () => {
  it('invites a person: the one-time password is shown once, and signs them in to choose their own', async () => {
    const { context, page, problems } = await signedIn()
    await openSettings(page, 'Users')
    await page.getByRole('button', { name: 'Invite person' }).click()
    const form = page.getByRole('form', { name: 'Invite a person' })
    await form.getByLabel('Name').fill('Grace Hopper')
    await form.getByLabel('Email').fill('grace@example.com')
    await form.getByLabel('Role').selectOption({ label: 'admin' })
    await form.getByRole('button', { name: 'Invite' }).click()

    const shown = page.getByRole('region', { name: 'One-time password for Grace Hopper' })
    const password = await shown.getByLabel('One-time password', { exact: true }).inputValue()
    expect(password.length).toBeGreaterThanOrEqual(12)
    expect(await shown.textContent()).toContain('as grace@example.com')
    await screenshot(page, 'settings-users-invited')
    const grace = await userByEmail('grace@example.com')
    expect(grace).toMatchObject({ type: 'HUMAN', name: 'Grace Hopper', roleId: await roleId('admin') })
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).getByRole('rowheader').allTextContents()).toContain('Grace Hoppergrace@example.com')

    await shown.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => shown.count()).toBe(0)
    expect(await page.content()).not.toContain(password)

    // The password signs Grace in, to nothing but choosing her own.
    const grace2 = await openProfile()
    await grace2.page.goto(`${server.origin}/dashboard`)
    await grace2.page.getByLabel('Email').fill('grace@example.com')
    await grace2.page.getByLabel('Password').fill(password)
    await grace2.page.getByRole('button', { name: 'Sign in' }).click()
    await grace2.page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor()
    await grace2.context.close()
    expect(problems).toEqual([])
    await context.close()
  })

  it("changes a person's role with the etag, and deletes them only after confirming", async () => {
    const grace = (await userByEmail('grace@example.com'))!
    const { context, page, problems } = await signedIn()
    await page.goto(`${server.origin}/dashboard/settings/users`)
    await page.getByRole('button', { name: 'Change role of Grace Hopper' }).click()
    const dialog = page.getByRole('dialog', { name: 'Change role of Grace Hopper' })
    await dialog.getByLabel('Role').selectOption({ label: 'read-only' })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await userByEmail('grace@example.com'))?.roleId).toBe(await roleId('read-only'))
    const row = page.getByRole('row', { name: /Grace Hopper/ })
    await expect.poll(() => row.getByRole('cell').nth(1).textContent()).toBe('read-only')

    // The role filter is in the URL.
    await page.getByRole('search', { name: 'Filter users' }).getByLabel('Role').selectOption({ label: 'read-only' })
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).getByRole('rowheader').allTextContents()).toEqual(['Grace Hoppergrace@example.com'])
    expect(new URL(page.url()).searchParams.get('role')).toBe(await roleId('read-only'))
    await screenshot(page, 'settings-users')

    await page.getByRole('button', { name: 'Delete Grace Hopper' }).click()
    await page.getByRole('dialog', { name: 'Delete Grace Hopper' }).getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No users match').waitFor()
    const gone = await server.api.GET('/iam/v2/users/{id}', { params: { path: { id: grace.id } } }).catch((error: unknown) => error)
    expect((gone as KassaApiError).status).toBe(410)
    expect(problems).toEqual([])
    await context.close()
  })

  it('deactivates a person after confirming, who then cannot sign in until reactivated; only with users:update', async () => {
    const linus = await newPerson(server, 'Linus Torvalds', 'read-only')
    const { context, page, problems } = await signedIn()
    await page.goto(`${server.origin}/dashboard/settings/users`)
    const row = page.getByRole('row', { name: /Linus Torvalds/ })
    const status = row.getByRole('cell').nth(2)
    expect(await status.textContent()).toBe('Active')

    await row.getByRole('button', { name: 'Deactivate Linus Torvalds' }).click()
    const deactivate = page.getByRole('dialog', { name: 'Deactivate Linus Torvalds' })
    expect(await deactivate.textContent()).toContain(
      'Linus Torvalds can no longer sign in: their sessions end and their access keys stop working, at once. The keys are kept, so Reactivate undoes this.',
    )
    await screenshot(page, 'settings-user-deactivate')
    await deactivate.getByRole('button', { name: 'Deactivate' }).click()
    await expect.poll(() => status.textContent()).toMatch(/^Deactivatedsince \d\d:\d\d$/)
    const user = async () => (await server.api.GET('/iam/v2/users/{id}', { params: { path: { id: linus.userId } } })).data
    expect(await user()).toMatchObject({ status: 'DEACTIVATED' })
    await screenshot(page, 'settings-users-deactivated')

    // Their password is refused, and the sign-in page says so.
    const them = await openProfile()
    await them.page.goto(`${server.origin}/dashboard`)
    await them.page.getByLabel('Email').fill(linus.email)
    await them.page.getByLabel('Password').fill(linus.password)
    await them.page.getByRole('button', { name: 'Sign in' }).click()
    const refused = them.page.getByRole('alert')
    await refused.waitFor()
    expect(await refused.textContent()).toMatch(/^Sign-in failed.+HTTP 401 · unauthorizedRequest id [0-9a-f-]{36}$/)
    expect(await them.page.getByRole('heading', { level: 1, name: 'Sign in' }).count()).toBe(1)

    await row.getByRole('button', { name: 'Reactivate Linus Torvalds' }).click()
    const reactivate = page.getByRole('dialog', { name: 'Reactivate Linus Torvalds' })
    expect(await reactivate.textContent()).toContain('Linus Torvalds can sign in again and their access keys work again.')
    await reactivate.getByRole('button', { name: 'Reactivate' }).click()
    await expect.poll(() => status.textContent()).toBe('Active')
    expect(await user()).toMatchObject({ status: 'ACTIVE' })

    // Signed in again, with a read-only role: the users are listed, without Deactivate (no users:update).
    await signIn(them.page, server, linus)
    await them.page.goto(`${server.origin}/dashboard/settings/users`)
    await them.page.getByRole('button', { name: 'Change role of Linus Torvalds' }).waitFor()
    expect(await them.page.getByRole('button', { name: /^(Deactivate|Reactivate) / }).count()).toBe(0)
    expect(them.problems).toEqual([])
    await them.context.close()
    expect(problems).toEqual([])
    await context.close()
  })

  it("shows the API's refusal to deactivate in the dialog: an admin may not deactivate an Owner", async () => {
    const ada = await newPerson(server, 'Ada Admin', 'admin')
    const { context, page, problems } = await signedIn(ada)
    await page.goto(`${server.origin}/dashboard/settings/users`)
    await page.getByRole('button', { name: 'Deactivate Olivia Owner' }).click()
    const dialog = page.getByRole('dialog', { name: 'Deactivate Olivia Owner' })
    await dialog.getByRole('button', { name: 'Deactivate' }).click()
    const alert = dialog.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/^Not done: deactivate olivia owner.*Only an Owner.*HTTP 403 · forbiddenRequest id [0-9a-f-]{36}$/)
    expect((await server.api.GET('/iam/v2/users/{id}', { params: { path: { id: olivia.userId } } })).data.status).toBe('ACTIVE')
    await screenshot(page, 'settings-user-deactivate-refused')
    expect(problems).toEqual([])
    await context.close()
  })

  it('creates a role with its permissions ticked as checkboxes', async () => {
    const { context, page, problems } = await signedIn()
    await openSettings(page, 'Roles')
    // The heading comes before the list has loaded: wait for its last row before reading them all.
    await page.getByRole('table', { name: 'Roles' }).getByRole('rowheader', { name: 'Treasury approver' }).waitFor()
    expect(await page.getByRole('table', { name: 'Roles' }).getByRole('rowheader').allTextContents()).toEqual([
      'owner',
      'admin',
      'read-only',
      'Treasury approver',
    ])
    await page.getByRole('button', { name: 'New role' }).click()
    await page.getByLabel('Name').fill('Payment approver')
    await page.getByLabel('Description').fill('Reviews and approves outgoing payments')
    await page.getByRole('checkbox', { name: 'Approve credit transfers' }).check()
    await page.getByRole('checkbox', { name: 'Read credit transfers' }).check()
    await page.getByRole('group', { name: 'Accounts', exact: true }).getByRole('checkbox', { name: 'Read accounts' }).check()
    await screenshot(page, 'settings-role-new')
    await page.getByRole('button', { name: 'Create' }).click()

    await page.getByRole('status').filter({ hasText: 'Saved role Payment approver.' }).waitFor()
    const { data } = await server.api.GET('/iam/v2/roles/{id}', { params: { path: { id: (await roleId('Payment approver'))! } } })
    expect(data).toMatchObject({ builtin: false, description: 'Reviews and approves outgoing payments' })
    // In the API's own order, whatever the order they were ticked in.
    expect(data.permissions).toEqual(['accounts:read', 'credit_transfers:read', 'credit_transfers:approve'])
    const row = page.getByRole('row', { name: /Payment approver/ })
    await row.getByText('3 permissions').click()
    expect(await row.getByRole('listitem').allTextContents()).toEqual(['Accounts: read', 'Credit transfers: read, approve'])
    await screenshot(page, 'settings-roles')
    expect(problems).toEqual([])
    await context.close()
  })

  it('creates an approval chain with one step in a form, shows the API refusing a contradiction, and edits it', async () => {
    const accountId = await euroAccount(server.api)
    const { context, page, problems } = await signedIn()
    await openSettings(page, 'Approval chains')
    await page.getByText('No approval chains yet').waitFor()
    await page.getByRole('link', { name: 'New approval chain' }).click()
    await page.getByRole('heading', { level: 1, name: 'New approval chain' }).waitFor()

    await page.getByLabel('Name').fill('Large EUR payments')
    await page.getByRole('group', { name: 'Payment types' }).getByRole('checkbox', { name: 'Credit transfers' }).check()
    await page.getByLabel('Currency').fill('eur')
    await page.getByLabel('Amount at least').fill('10000')
    await page.getByLabel('Amount below').fill('5000')
    await page.getByRole('group', { name: 'Own accounts' }).getByRole('checkbox').first().check()
    const step = page.getByRole('group', { name: 'Step 1' })
    await step.getByRole('group', { name: 'Any holder of these roles' }).getByRole('checkbox', { name: 'Treasury approver' }).check()
    await step.getByRole('group', { name: 'Or one of these people' }).getByRole('checkbox', { name: 'Olivia Owner' }).check()
    await page.getByRole('button', { name: 'Create' }).click()

    // The API is the judge: the range is empty, and the field it names says so.
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toContain('must be greater than trigger.amountAtLeast')
    expect(await page.getByLabel('Amount below').getAttribute('aria-invalid')).toBe('true')
    await screenshot(page, 'settings-approval-chain-refused')
    await page.getByLabel('Amount below').fill('')
    await page.getByRole('button', { name: 'Create' }).click()

    await page.getByRole('heading', { level: 1, name: 'Approval chains' }).waitFor()
    const row = page.getByRole('row', { name: /Large EUR payments/ })
    // The account is named by its IBAN once the own accounts are read, a moment after the chains.
    await expect.poll(() => row.getByRole('cell').nth(0).textContent()).toMatch(/^Only credit transfers, in EUR, of at least €10,000.00, from DE\d\d/)
    expect(await row.getByRole('listitem').allTextContents()).toEqual(['any Treasury approver or Olivia Owner'])
    const { data } = await server.api.GET('/iam/v2/approval-chains')
    expect(data.items).toHaveLength(1)
    const chain = data.items[0]!
    expect(chain).toMatchObject({
      name: 'Large EUR payments',
      trigger: { paymentTypes: ['CREDIT_TRANSFER'], currency: 'EUR', amountAtLeast: { currency: 'EUR', value: 10_000_00 }, accountIds: { in: [accountId] } },
      steps: [{ requiredRoleIds: [approverRoleId], requiredUserIds: [olivia.userId], allowCreatorApproval: false }],
      autoApprove: false,
    })
    await screenshot(page, 'settings-approval-chains')

    await row.getByRole('link', { name: 'Large EUR payments' }).click()
    await page.getByRole('heading', { level: 1, name: 'Large EUR payments' }).waitFor()
    expect(await page.getByLabel('Amount at least').inputValue()).toBe('10000.00')
    await page.getByLabel('Amount at least').fill('20000')
    await page.getByRole('group', { name: 'Step 1' }).getByRole('checkbox', { name: 'The payment’s creator may approve this step' }).check()
    await screenshot(page, 'settings-approval-chain')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('heading', { level: 1, name: 'Approval chains' }).waitFor()
    const { data: edited } = await server.api.GET('/iam/v2/approval-chains/{id}', { params: { path: { id: chain.id } } })
    expect(edited).toMatchObject({ version: chain.version + 1, trigger: { amountAtLeast: { value: 20_000_00 }, accountIds: { in: [accountId] } } })
    expect(edited.steps).toEqual([{ requiredRoleIds: [approverRoleId], requiredUserIds: [olivia.userId], allowCreatorApproval: true }])
    expect(problems).toEqual([])
    await context.close()
  })

  it('creates an access key whose secret is shown once and works, and revokes it after confirming', async () => {
    const { context, page, problems } = await signedIn()
    await openSettings(page, 'Access keys')
    await page.getByText('Olivia Owner has no active access keys').waitFor()
    await page.getByRole('button', { name: 'Create access key' }).click()
    const shown = page.getByRole('region', { name: 'New access key of Olivia Owner' })
    const accessKey = await shown.getByLabel('Access key', { exact: true }).inputValue()
    const secret = await shown.getByLabel('Secret', { exact: true }).inputValue()
    await screenshot(page, 'settings-access-keys')
    const asKey = createKassaClient({ baseUrl: server.origin, accessKey, secret, retry: false })
    const { data: me } = await asKey.GET('/iam/v2/users/{id}', { params: { path: { id: olivia.userId } } })
    expect(me.name).toBe('Olivia Owner')
    await shown.getByRole('button', { name: 'Done' }).click()
    expect(await page.content()).not.toContain(secret)

    await page.getByRole('button', { name: `Revoke ${accessKey}` }).click()
    await page.getByRole('dialog', { name: 'Revoke access key' }).getByRole('button', { name: 'Revoke' }).click()
    await page.getByText('Olivia Owner has no active access keys').waitFor()
    const refused = await asKey.GET('/iam/v2/users/{id}', { params: { path: { id: olivia.userId } } }).catch((error: unknown) => error)
    expect((refused as KassaApiError).status).toBe(401)
    expect(problems).toEqual([])
    await context.close()
  })

  it("lists the person's sessions and ends another one; sets up an authenticator app with its first code", async () => {
    const tom = await newPerson(server, 'Tom Lindqvist', 'admin')
    const laptop = await signedIn(tom)
    const phone = await signedIn(tom, PHONE)
    await openSettings(laptop.page, 'Your sign-in')
    const sessions = laptop.page.getByRole('table', { name: 'Your sessions' }).getByRole('row')
    await expect.poll(() => sessions.count()).toBe(3)
    expect(await laptop.page.getByText('This session').count()).toBe(1)
    await laptop.page.getByRole('button', { name: /^End session from / }).click()
    await laptop.page.getByRole('dialog', { name: 'End session' }).getByRole('button', { name: 'End session' }).click()
    await expect.poll(() => sessions.count()).toBe(2)
    // The phone's session is over: its next request finds it signed out.
    await phone.page.reload()
    await phone.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
    await phone.context.close()

    await laptop.page.getByLabel('Your password').fill(tom.password)
    await laptop.page.getByRole('button', { name: 'Set up authenticator app' }).click()
    const secret = await laptop.page.getByLabel('Secret', { exact: true }).inputValue()
    expect(await laptop.page.getByLabel('otpauth URI', { exact: true }).inputValue()).toMatch(/^otpauth:\/\/totp\/Kassa:.*secret=/)
    await screenshot(laptop.page, 'settings-sign-in-authenticator')
    await laptop.page.getByLabel('Authentication code').fill(totpCode(secret, new Date()))
    await laptop.page.getByRole('button', { name: 'Turn on' }).click()
    await laptop.page.getByText('Set up: signing in asks for the 6-digit code of your authenticator app.').waitFor()
    const { data: session } = await server.api.GET('/iam/v2/users/{id}/sessions', { params: { path: { id: tom.userId } } })
    expect(session.items.map((item) => item.secondFactor)).toEqual([true])
    await screenshot(laptop.page, 'settings-sign-in')
    expect(laptop.problems).toEqual([])
    await laptop.context.close()
  })

  it('shows the Users page on a phone', async () => {
    const { context, page, problems } = await signedIn(olivia, PHONE)
    await page.goto(`${server.origin}/dashboard/settings`)
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor()
    expect(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe('page')
    await page.getByRole('table', { name: 'Users' }).waitFor()
    await screenshot(page, 'settings-users-phone')
    expect(problems).toEqual([])
    await context.close()
  })
})
