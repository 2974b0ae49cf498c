import { describe, expect, it } from 'vitest'
import { totpCode } from '../../src/iam/totp/totp.js'
import { createSandboxOrganization } from '../../src/organizations/organization.service.js'
import { screenshot } from './support/browser.js'
import { dashboardUnderTest } from './support/dashboard-under-test.js'
import { newPerson, sessionCookieOf, sessionsOf, signIn } from './support/kassa-server.js'

const { server, openProfile } = dashboardUnderTest()

describe('signing in to the dashboard', () => {
  it('refuses a wrong password with the API message and its request id, and starts no session', async () => {
    const ada = await newPerson(server, 'Ada Lovelace', 'admin')
    const { context, page, problems } = await openProfile()
    await page.goto(`${server.origin}/dashboard/approvals`)
    await page.getByLabel('Email').fill(ada.email)
    await page.getByLabel('Password').fill('not the password at all')
    await page.getByRole('button', { name: 'Sign in' }).click()

    const alert = page.getByRole('alert')
    await expect.poll(() => alert.textContent()).toContain('Wrong email or password')
    expect(await alert.textContent()).toMatch(/HTTP 401 · unauthorized.*Request id [0-9a-f-]{36}/)
    await screenshot(page, 'sign-in-refused')
    expect(await sessionsOf(server, ada.userId)).toEqual([])
    expect(await sessionCookieOf(context)).toBeUndefined()
    expect(problems).toEqual([])
    await context.close()
  })

  it("signs in with email and password: the person's name and role in the header, the sections in the navigation", async () => {
    const ada = await newPerson(server, 'Ada Lovelace', 'admin')
    const { context, page, problems } = await openProfile()
    await page.goto(`${server.origin}/dashboard`)
    await screenshot(page, 'sign-in')
    await signIn(page, server, ada)

    expect(page.url()).toBe(`${server.origin}/dashboard/approvals`)
    const banner = page.getByRole('banner')
    expect(await banner.textContent()).toContain('Ada Lovelace')
    expect(await banner.textContent()).toContain('admin')
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Approvals', 'Payments', 'Counterparties', 'Accounts', 'Webhooks', 'Settings'])
    expect(await nav.getByRole('link', { name: 'Approvals' }).getAttribute('aria-current')).toBe('page')
    const [session] = await sessionsOf(server, ada.userId)
    expect(session).toMatchObject({ revoked_at: null })
    expect(problems).toEqual([])
    await context.close()
  })

  it('opens every section from the navigation, each a page of its own address (screenshots of each)', async () => {
    const ada = await newPerson(server, 'Grace Hopper', 'admin')
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    for (const section of ['Payments', 'Counterparties', 'Accounts', 'Webhooks', 'Settings', 'Approvals']) {
      // Settings opens on its first part, the users.
      const heading = section === 'Settings' ? 'Users' : section
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: section }).click()
      await page.getByRole('heading', { level: 1, name: heading }).waitFor()
      expect(new URL(page.url()).pathname).toBe(`/dashboard/${section.toLowerCase()}`)
      // The title is set by an effect after the page renders: wait for it rather than read it with the heading.
      await page.waitForFunction((title) => document.title === title, `${heading} · Kassa`, { timeout: 5_000 })
      // The heading takes focus, so a keyboard or screen reader user starts on the new page.
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1')
      await screenshot(page, `page-${section.toLowerCase()}`)
    }
    // A page's address works on its own: reload it.
    await page.goto(`${server.origin}/dashboard/payments`)
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor()
    expect(problems).toEqual([])
    await context.close()
  })

  it('after a one-time password, shows only the form to choose a new one; then the dashboard', async () => {
    const sandbox = await createSandboxOrganization(server.t.db.database, 'First start', { ownerSignIn: true })
    const { email, oneTimePassword } = sandbox.signIn!
    const { context, page, problems } = await openProfile()
    await page.goto(`${server.origin}/dashboard`)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(oneTimePassword)
    await page.getByRole('button', { name: 'Sign in' }).click()

    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor()
    expect(await page.getByRole('navigation').count()).toBe(0)
    await screenshot(page, 'change-password')
    await page.getByLabel('New password', { exact: true }).fill('short')
    await page.getByLabel('Repeat new password').fill('short')
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/newPassword/)

    await page.getByLabel('New password', { exact: true }).fill('seven quiet herons by the canal')
    await page.getByLabel('Repeat new password').fill('seven quiet herons by the canal')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor()
    expect(await page.getByRole('banner').textContent()).toContain('Sandbox Owner')
    expect(problems).toEqual([])
    await context.close()
  })

  it('asks for the authenticator code when the account has TOTP, and signs in with it', async () => {
    const katherine = await newPerson(server, 'Katherine Johnson', 'admin')
    const { context, page, problems } = await openProfile()
    await signIn(page, server, katherine)
    // Enrolled through the API with the person's own session (cookie and CSRF token), as the Settings page will.
    const secret = await page.evaluate(async (password) => {
      const { csrfToken } = await (await fetch('/iam/v2/session')).json()
      const headers = { 'content-type': 'application/json', 'x-csrf-token': csrfToken }
      const enrolled = await fetch('/iam/v2/session/totp:enroll', { method: 'POST', headers, body: JSON.stringify({ password }) })
      return ((await enrolled.json()) as { secret: string }).secret
    }, katherine.password)
    const confirmed = await page.evaluate(async (code) => {
      const { csrfToken } = await (await fetch('/iam/v2/session')).json()
      const headers = { 'content-type': 'application/json', 'x-csrf-token': csrfToken }
      return (await fetch('/iam/v2/session/totp:confirm', { method: 'POST', headers, body: JSON.stringify({ code }) })).status
    }, totpCode(secret, new Date()))
    expect(confirmed).toBe(204)
    await page.getByRole('button', { name: 'Sign out' }).click()

    await page.getByLabel('Email').fill(katherine.email)
    await page.getByLabel('Password').fill(katherine.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    const codeField = page.getByLabel('Authentication code')
    await codeField.waitFor()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('one-time-code')
    expect(await page.getByRole('alert').count()).toBe(0)
    await screenshot(page, 'sign-in-code')
    // The next step's code: the one that confirmed may not be used twice (RFC 6238 §5.2), and one step ahead is accepted.
    await codeField.fill(totpCode(secret, new Date(Date.now() + 30_000)))
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor()
    expect(problems).toEqual([])
    await context.close()
  })

  it('signs out: back to the sign-in page, and the cookie it had no longer works', async () => {
    const ada = await newPerson(server, 'Mary Jackson', 'admin')
    const { context, page, problems } = await openProfile()
    await signIn(page, server, ada)
    const cookie = await sessionCookieOf(context)
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const before = await fetch(`${server.origin}/iam/v2/session`, { headers: { cookie: `kassa_session=${cookie}` } })
    expect(before.status).toBe(200)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
    expect(await page.getByRole('status').textContent()).toBe('You have signed out.')
    expect(await sessionCookieOf(context)).toBeUndefined()
    const after = await fetch(`${server.origin}/iam/v2/session`, { headers: { cookie: `kassa_session=${cookie}` } })
    expect(after.status).toBe(401)
    expect((await sessionsOf(server, ada.userId))[0]!.revoked_at).not.toBeNull()
    // A reload does not bring the session back either.
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
    expect(problems).toEqual([])
    await context.close()
  })
})
