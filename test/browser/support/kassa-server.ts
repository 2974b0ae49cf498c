import type { BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'
import { createKassaClient, type KassaClient } from '../../../packages/client/src/index.js'
import { createPerson } from '../../../src/iam/index.js'
import { IBANS } from '../../support/fixtures.js'
import { startTestApp, type TestApp } from '../../support/test-app.js'

/**
 * A Kassa server for the browser: the app with a fresh database (test/support/test-app.ts), listening on
 * 127.0.0.1 on a free port, so Chromium loads the dashboard from it as from `npm start`. Set-up and
 * checks go through the same public API with the SDK, as the Owner's access key.
 */
export interface KassaServer {
  t: TestApp
  /** http://127.0.0.1:PORT, the dashboard's origin. */
  origin: string
  /** The API as the sandbox organization's Owner key. */
  api: KassaClient
  close(): Promise<void>
}

/** A fresh Kassa listening on 127.0.0.1; `start` builds the app (a test app by default, or the webhook tests' one). */
export async function startKassaServer(start: () => Promise<TestApp> = () => startTestApp()): Promise<KassaServer> {
  const t = await start()
  const origin = await t.app.listen({ host: '127.0.0.1', port: 0 })
  const api = createKassaClient({ baseUrl: origin, accessKey: t.owner.accessKey, secret: t.owner.secret, retry: false })
  return { t, origin, api, close: () => t.close() }
}

export const PASSWORD = 'violet kettle drums at noon'

export interface Person {
  userId: string
  roleId: string
  name: string
  email: string
  password: string
}

let people = 0

/** A person with a password and a built-in role, as `kassa users create --password-stdin` makes one. */
export async function newPerson(server: KassaServer, name: string, roleName: string): Promise<Person> {
  people += 1
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${people}@example.com`
  const user = await createPerson(server.t.db.database, { organizationId: server.t.owner.organizationId, name, email, roleName }, PASSWORD)
  return { userId: user.id, roleId: user.role_id, name, email, password: PASSWORD }
}

/** A new counterparty's IBAN account, for payments to. */
export async function counterpartyAccount(api: KassaClient, legalName: string, iban: string = IBANS.de): Promise<string> {
  const market = iban.slice(0, 2)
  const { data } = await api.POST('/payments/v2/counterparties', {
    body: { legalName, partyType: 'COMPANY', accounts: [{ market, identifiers: [{ market, type: 'IBAN', number: iban }] }] },
  })
  return data.accounts[0]!.id
}

/** The organization's first own EUR account, where payments leave from. */
export async function euroAccount(api: KassaClient): Promise<string> {
  const { data } = await api.GET('/financial-data/v2/accounts', { params: { query: { currency: 'EUR' } } })
  return data.items[0]!.id
}

/** A credit transfer for today, created through the API by the Owner's key: it waits for approval (CREATED). */
export async function newCreditTransfer(api: KassaClient, fields: { reference: string; value: number; destinationId: string; sourceId: string }) {
  const { data } = await api.POST('/payments/v2/credit-transfers', {
    body: {
      amount: { currency: 'EUR', value: fields.value },
      date: new Date().toISOString().slice(0, 10),
      scheme: 'SCT',
      source: { type: 'ACCOUNT', id: fields.sourceId },
      destination: { type: 'EXTERNAL_ACCOUNT', id: fields.destinationId },
      reference: fields.reference,
    },
  })
  expect(data.status).toBe('CREATED')
  return data
}

/** Opens the dashboard and signs in through its form, as a person would; waits for the first page. */
export async function signIn(page: Page, server: KassaServer, who: Pick<Person, 'email' | 'password'>): Promise<void> {
  await page.goto(`${server.origin}/dashboard`)
  // The sign-in form, or the page's own account of why not (Kassa unreachable): the failure then says which.
  await page.getByLabel('Email').or(page.getByRole('alert')).first().waitFor()
  if (await page.getByRole('alert').count()) throw new Error(`No sign-in form: ${await page.getByRole('alert').first().textContent()}`)
  await page.getByLabel('Email').fill(who.email)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor()
}

/** The browser's session cookie (HttpOnly: no page script can read it, the browser profile can). */
export async function sessionCookieOf(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === 'kassa_session')?.value
}

/** The live sessions of a user, read from the database: what a wrong password must not create. */
export async function sessionsOf(server: KassaServer, userId: string) {
  return server.t.db.database.db.selectFrom('sessions').select(['id', 'revoked_at']).where('user_id', '=', userId).execute()
}

/** Reads again until `done` holds (the payment worker moves payments on in the background). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
