import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays } from '../../src/shared/calendar.js'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { bookedNow, ledgerProblems, liveOrganization, reportedBalance, sandboxAccounts } from './sandbox-helpers.js'

let t: TestApp
let live: Credentials
let today: string
let eur: string
let sek: string
beforeAll(async () => {
  // No payment worker: its processDue would move these banks' clocks in the background.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  live = await liveOrganization(t.db.database)
  today = new Date().toISOString().slice(0, 10)
  const accounts = await sandboxAccounts(t.db.database, t.owner.organizationId)
  eur = accounts.find((account) => account.name === 'Operating account')!.id
  sek = accounts.find((account) => account.currency === 'SEK')!.id
})
afterAll(() => t.close())

const advance = (body: unknown, as?: Credentials) => t.request({ method: 'POST', url: '/v1/sandbox/clock:advance', body, ...(as ? { as } : {}) })
const inject = (body: unknown, as?: Credentials, headers?: Record<string, string>) =>
  t.request({ method: 'POST', url: '/v1/sandbox/transactions', body, ...(as ? { as } : {}), ...(headers ? { headers } : {}) })

function expectInvalid(response: { statusCode: number; json(): unknown }, field: string) {
  expect(response.statusCode).toBe(400)
  const body = response.json() as { code: string; details?: { field: string }[] }
  expect(body.code).toBe('invalid_request')
  expect(body.details?.map((detail) => detail.field)).toContain(field)
}

describe('sandbox-only', () => {
  it('answers 403 to organizations that are not sandboxes, saying why', async () => {
    for (const response of [
      await t.request({ method: 'GET', url: '/v1/sandbox/clock', as: live }),
      await advance({ days: 1 }, live),
      await inject({ accountId: eur, amount: { currency: 'EUR', value: 100 }, description: 'x' }, live),
    ]) {
      expect(response.statusCode).toBe(403)
      expect(response.json()).toMatchObject({ code: 'forbidden', message: expect.stringContaining('not a sandbox') })
    }
  })

  it('lets a read-only key read the clock (accounts:read), but not move it or book on it (sandbox:update)', async () => {
    const reader = await t.newKey('read-only')
    const clock = await t.request({ method: 'GET', url: '/v1/sandbox/clock', as: reader })
    expect(clock.statusCode, clock.body).toBe(200)
    expect(clock.json()).toMatchObject({ organizationId: t.owner.organizationId, today: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) })
    for (const response of [await advance({}, reader), await inject({ accountId: eur, amount: { currency: 'EUR', value: 100 } }, reader)]) {
      expect(response.statusCode).toBe(403)
      expect(response.json()).toMatchObject({ code: 'forbidden', message: expect.stringContaining('sandbox:update') })
    }
    expect((await t.request({ method: 'GET', url: '/v1/sandbox/clock', as: reader })).json().today).toBe(clock.json().today)
    expect((await t.request({ method: 'GET', url: '/v1/sandbox/clock', as: null })).statusCode).toBe(401)
  })

  it('refuses the clock to a role without accounts:read (403)', async () => {
    const role = await t.request({ method: 'POST', url: '/iam/v2/roles', body: { name: 'payments-only', permissions: ['credit_transfers:read'] } })
    expect(role.statusCode, role.body).toBe(201)
    const paymentsOnly = await t.newKey('payments-only')
    const response = await t.request({ method: 'GET', url: '/v1/sandbox/clock', as: paymentsOnly })
    expect(response.statusCode).toBe(403)
    expect(response.json()).toMatchObject({ code: 'forbidden', message: expect.stringContaining('accounts:read') })
  })

  it('is documented in the OpenAPI', async () => {
    const document = (await t.request({ method: 'GET', url: '/openapi.json', as: null })).json() as { paths: Record<string, unknown> }
    const paths = Object.keys(document.paths).filter((path) => path.startsWith('/v1/sandbox'))
    expect(paths.sort()).toEqual(['/v1/sandbox/clock', '/v1/sandbox/clock:advance', '/v1/sandbox/transactions'])
  })
})

describe('the clock', () => {
  it('moves forward by days or to a date, reporting closed days', async () => {
    const { organizationId } = await t.newOrganization('Clock Co')
    const owner = await t.newKey('owner', organizationId)
    const clock = await t.request({ method: 'GET', url: '/v1/sandbox/clock', as: owner })
    expect(clock.statusCode).toBe(200)
    expect(clock.json()).toEqual({ organizationId, today, daysAhead: 0, openInstructions: 0 })

    const oneDay = await advance({}, owner)
    expect(oneDay.statusCode).toBe(200)
    expect(oneDay.json()).toEqual({ organizationId, previousToday: today, today: addDays(today, 1), statusChanges: [] })
    expect((await advance({ days: 2 }, owner)).json()).toMatchObject({ today: addDays(today, 3) })
    expect((await advance({ to: addDays(today, 10) }, owner)).json()).toMatchObject({ previousToday: addDays(today, 3), today: addDays(today, 10) })
    expect((await advance({ days: 0 }, owner)).json()).toMatchObject({ today: addDays(today, 10) })
    expect((await t.request({ method: 'GET', url: '/v1/sandbox/clock', as: owner })).json()).toMatchObject({ daysAhead: 10 })

    const accounts = await sandboxAccounts(t.db.database, organizationId)
    const booked = await bookedNow(t.db.database, accounts[0]!.id)
    expect(await reportedBalance(t.db.database, accounts[0]!.id, 'BOOKED', 'CLOSE', addDays(today, 9))).toBe(booked)
    expect(await ledgerProblems(t.db.database, organizationId)).toEqual([])
  })

  it('refuses bad targets with a 400 naming the field', async () => {
    expectInvalid(await advance({ days: -1 }), 'days')
    expectInvalid(await advance({ days: 1.5 }), 'days')
    expectInvalid(await advance({ days: 367 }), 'days')
    expectInvalid(await advance({ to: 'tomorrow' }), 'to')
    expectInvalid(await advance({ to: '2025-02-30' }), 'to')
    expectInvalid(await advance({ to: addDays(today, -1) }), 'to')
    expectInvalid(await advance({ to: addDays(today, 400) }), 'to')
    expectInvalid(await advance({ days: 1, to: addDays(today, 1) }), 'to')
    expect((await advance({ hours: 3 })).statusCode).toBe(400)
    expect((await t.request({ method: 'POST', url: '/v1/sandbox/clock:advance', body: 'days=1', headers: { 'content-type': 'text/plain' } })).statusCode).toBe(415)
    expect((await t.request({ method: 'GET', url: '/v1/sandbox/clock:advance' })).statusCode).toBe(405)
  })
})

describe('injected transactions', () => {
  it('books money in and out on the bank’s today and moves the balances', async () => {
    const before = await bookedNow(t.db.database, eur)
    const incoming = await inject({
      accountId: eur,
      amount: { currency: 'EUR', stringValue: '1500.25' },
      description: 'Customer payment',
      reference: 'INV-2025-0042',
      endToEndId: 'E2E-IN-1',
      counterparty: { name: 'Acme GmbH', partyType: 'COMPANY', iban: 'de89 3704 0044 0532 0130 00' },
    })
    expect(incoming.statusCode).toBe(201)
    expect(incoming.json()).toMatchObject({
      accountId: eur,
      amount: { currency: 'EUR', value: 150_025, stringValue: '1500.25' },
      date: today,
      valueDate: today,
      description: 'Customer payment',
      reference: 'INV-2025-0042',
      references: { endToEndId: 'E2E-IN-1' },
      counterparty: { name: 'Acme GmbH', partyType: 'COMPANY', account: { market: 'DE', identifiers: [{ type: 'IBAN', number: 'DE89370400440532013000' }] } },
      bankTransactionCode: { domain: 'PMNT', family: 'MCOP' },
      reconciliationStatus: 'NOT_RECONCILED',
    })
    const outgoing = await inject({ accountId: sek, amount: { currency: 'SEK', value: -99_000 }, remittanceInformation: { type: 'UNSTRUCTURED', value: 'Hyra juni' } })
    expect(outgoing.statusCode).toBe(201)
    expect(outgoing.json()).toMatchObject({ amount: { value: -99_000, stringValue: '-990.00' }, description: 'Hyra juni', reference: 'Hyra juni' })

    expect(await bookedNow(t.db.database, eur)).toBe(before + 150_025)
    expect(await reportedBalance(t.db.database, eur, 'BOOKED', 'INTERIM', today)).toBe(before + 150_025)
    expect(await reportedBalance(t.db.database, eur, 'AVAILABLE', 'INTERIM', today)).toBe(before + 150_025)
    const fetched = await t.request({ method: 'GET', url: `/financial-data/v2/transactions/${incoming.json().id}` })
    expect(fetched.statusCode).toBe(200)
    expect(await ledgerProblems(t.db.database, t.owner.organizationId)).toEqual([])
  })

  it('backdates an entry and reports every later day again', async () => {
    const date = addDays(today, -20)
    const closeBefore = (await reportedBalance(t.db.database, eur, 'BOOKED', 'CLOSE', addDays(today, -10)))!
    const response = await inject({ accountId: eur, amount: { currency: 'EUR', value: -7_700 }, date, valueDate: addDays(date, -1), description: 'Late fee' })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({ date, valueDate: addDays(date, -1) })
    expect(await reportedBalance(t.db.database, eur, 'BOOKED', 'CLOSE', addDays(today, -10))).toBe(closeBefore - 7_700)
    expect(await ledgerProblems(t.db.database, t.owner.organizationId)).toEqual([])
  })

  it('replays an Idempotency-Key instead of booking twice', async () => {
    const before = await bookedNow(t.db.database, eur)
    const body = { accountId: eur, amount: { currency: 'EUR', value: 4_200 }, description: 'Once only' }
    const first = await inject(body, undefined, { 'idempotency-key': 'inject-once-1' })
    const second = await inject(body, undefined, { 'idempotency-key': 'inject-once-1' })
    expect(first.statusCode).toBe(201)
    expect(second.statusCode).toBe(201)
    expect(second.json().id).toBe(first.json().id)
    expect(await bookedNow(t.db.database, eur)).toBe(before + 4_200)
  })

  it('refuses bad input with a 400 naming the field', async () => {
    const base = { accountId: eur, amount: { currency: 'EUR', value: 100 }, description: 'Test' }
    expectInvalid(await inject({ ...base, amount: { currency: 'SEK', value: 100 } }), 'amount.currency')
    expectInvalid(await inject({ ...base, amount: { currency: 'EUR', value: 0 } }), 'amount')
    expectInvalid(await inject({ ...base, amount: { currency: 'EUR', value: 1, stringValue: '0.01' } }), 'amount')
    expectInvalid(await inject({ ...base, amount: { currency: 'EUR' } }), 'amount')
    expectInvalid(await inject({ ...base, amount: { currency: 'EUR', stringValue: '1.005' } }), 'amount.stringValue')
    expectInvalid(await inject({ ...base, amount: { currency: 'ZZZ', value: 1 } }), 'amount.currency')
    expectInvalid(await inject({ ...base, date: addDays(today, 1) }), 'date')
    expectInvalid(await inject({ ...base, date: addDays(today, -365) }), 'date')
    expectInvalid(await inject({ ...base, date: '2025-13-01' }), 'date')
    expectInvalid(await inject({ ...base, counterparty: { name: 'Bad', iban: 'DE00370400440532013000' } }), 'counterparty.iban')
    expectInvalid(await inject({ accountId: eur, amount: { currency: 'EUR', value: 100 } }), 'description')
    expectInvalid(await inject({ ...base, accountId: 'not-an-id' }), 'accountId')
    expect((await inject({ ...base, colour: 'red' })).statusCode).toBe(400)
  })

  it('answers 404 for an account the organization’s sandbox bank does not hold', async () => {
    const other = await t.newOrganization('Neighbour')
    const [theirs] = await sandboxAccounts(t.db.database, other.organizationId)
    for (const accountId of [theirs!.id, '01978a3c-0000-7000-8000-00000000dead']) {
      const response = await inject({ accountId, amount: { currency: 'EUR', value: 100 }, description: 'x' })
      expect(response.statusCode).toBe(404)
      expect(response.json().message).toContain('sandbox bank')
    }
  })
})
