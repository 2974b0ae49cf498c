import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { basicAuth, type TestApp } from '../support/test-app.js'
import { IBANS } from '../support/fixtures.js'
import { listAll } from './payments-helpers.js'

/** Shared steps of the payment lifecycle tests: everything over HTTP, as an integrator would drive it. */

export const CREDIT_TRANSFERS = '/payments/v2/credit-transfers'
export const DIRECT_DEBITS = '/payments/v2/direct-debits'
export const MANDATES = '/payments/v2/mandates'
export const RETURNING_IBAN = 'DE40500105176499974616'
export const MISSING_ID = '01900000-0000-7000-8000-000000000000'

export type Kind = 'CREDIT_TRANSFER' | 'DIRECT_DEBIT'
export const BASE: Record<Kind, string> = { CREDIT_TRANSFER: CREDIT_TRANSFERS, DIRECT_DEBIT: DIRECT_DEBITS }

/** Statuses a payment stays in unless a bank returns it. */
export const SETTLED = ['REJECTED', 'FAILED', 'RECONCILED', 'RETURNED']

export interface PaymentJson {
  id: string
  status: string
  statusReason?: { code: string; message?: string }
  amount: { currency: string; value: number }
  date: string
  version: number
  etag: string
  creatorUserId: string
  connectionInstructionId?: string
  attachedTransactions: Array<{ type: 'TRANSACTION'; id: string }>
  approvalSteps: Array<{ id: string; approvalChainId: string; status: string; approver?: { id: string } }>
  mandate?: { id: string }
  source: { type: string; id: string; identifiers: Array<{ market: string; type: string; number: string }>; bic?: string }
}

export interface EventJson {
  id: number
  type: string
  name: string
  originator: string
  message?: string
  timestamp: string
  entityVersion: number
}

export interface TransactionJson {
  id: string
  accountId: string
  amount: { currency: string; value: number }
  date: string
  references: { endToEndId?: string; entryReference: string }
  reconciliationStatus: string
  attachedTransactables: Array<{ type: string; id: string }>
  returned: boolean
  returnReason?: { code: string }
  bankTransactionCode?: { domain?: string; family?: string; subfamily?: string }
}

/**
 * `amount`, or the next one up when the sandbox bank scripts its cents: an amount ending in .04 FAILS with AC04 (a closed
 * account, instruction-rules.ts). For amounts derived from a random balance, which must only test funds.
 */
export function unscriptedAmount(amount: number): number {
  return amount % 100 === 4 ? amount + 1 : amount
}

export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10)
}

export function addDays(date: string, days: number): string {
  const next = new Date(`${date}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + days)
  return next.toISOString().slice(0, 10)
}

/** The end-to-end id Kassa gives a payment's instruction: how its bookings are found. */
export function endToEndIdOf(paymentId: string): string {
  return paymentId.replaceAll('-', '')
}

export function expectStatus(response: LightMyRequestResponse, status: number): void {
  expect(response.statusCode, response.body).toBe(status)
}

/** Polls `read` until `done` holds; fails with the last value after `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000, pauseMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 2_000)}`)
    await new Promise((resolve) => setTimeout(resolve, pauseMs))
  }
}

/** An organization's own accounts and a counterparty to pay, set up through the API. */
export interface Setup {
  as: Credentials
  /** EUR accounts: operating, payroll. */
  eurAccountIds: string[]
  /** An external account with an ordinary IBAN, and one at the IBAN the sandbox bank returns payments from. */
  supplierAccountId: string
  returningAccountId: string
}

export async function externalAccount(t: TestApp, as: Credentials, legalName: string, iban: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/payments/v2/counterparties',
    body: { legalName, partyType: 'COMPANY', accounts: [{ market: iban.slice(0, 2), identifiers: [{ market: iban.slice(0, 2), type: 'IBAN', number: iban }] }] },
    as,
  })
  expectStatus(response, 201)
  return response.json<{ accounts: Array<{ id: string }> }>().accounts[0]!.id
}

export async function setup(t: TestApp, as: Credentials = t.owner): Promise<Setup> {
  const accounts = await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR', as })
  expectStatus(accounts, 200)
  return {
    as,
    eurAccountIds: accounts.json<{ items: Array<{ id: string }> }>().items.map((account) => account.id),
    supplierAccountId: await externalAccount(t, as, 'Nordlicht Consulting GmbH', IBANS.de),
    returningAccountId: await externalAccount(t, as, 'Closed Account AG', RETURNING_IBAN),
  }
}

export function transferBody(sourceId: string, destinationId: string, overrides: Record<string, unknown> = {}) {
  return {
    amount: { currency: 'EUR', value: 100_00 },
    date: todayUtc(),
    scheme: 'SCT',
    source: { type: 'ACCOUNT', id: sourceId },
    destination: { type: 'EXTERNAL_ACCOUNT', id: destinationId },
    reference: 'Invoice 2026-114',
    ...overrides,
  }
}

export async function createTransfer(t: TestApp, as: Credentials, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<PaymentJson> {
  const response = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, headers, as })
  expectStatus(response, 201)
  return response.json<PaymentJson>()
}

/** A mandate on the external account, then a direct debit under it into `accountId`. */
export async function createMandate(
  t: TestApp,
  as: Credentials,
  externalAccountId: string,
  mandateReference: string,
  scheme: 'SDD_CORE' | 'SDD_B2B' = 'SDD_CORE',
): Promise<{ id: string; status: string }> {
  const response = await t.request({
    method: 'POST',
    url: MANDATES,
    body: { externalAccountId, scheme, creditorReference: 'DE98ZZZ09999999999', mandateReference, signatureDate: '2026-01-15' },
    as,
  })
  expectStatus(response, 201)
  return response.json()
}

export function directDebitBody(externalAccountId: string, accountId: string, overrides: Record<string, unknown> = {}) {
  return {
    amount: { currency: 'EUR', value: 49_90 },
    date: todayUtc(),
    scheme: 'SDD_CORE',
    source: { type: 'EXTERNAL_ACCOUNT', id: externalAccountId },
    destination: { type: 'ACCOUNT', id: accountId },
    reference: 'Subscription November',
    ...overrides,
  }
}

export async function createDirectDebit(t: TestApp, as: Credentials, body: Record<string, unknown>): Promise<PaymentJson> {
  const response = await t.request({ method: 'POST', url: DIRECT_DEBITS, body, as })
  expectStatus(response, 201)
  return response.json<PaymentJson>()
}

export function approve(t: TestApp, as: Credentials, kind: Kind, payment: Pick<PaymentJson, 'id'>, stepId: string): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: `${BASE[kind]}/${payment.id}:approve`, body: { approvalStepId: stepId }, as })
}

/** The owner approves the payment's (only) step: 202 and APPROVED. */
export async function approveAsOwner(t: TestApp, as: Credentials, kind: Kind, payment: PaymentJson): Promise<PaymentJson> {
  const response = await approve(t, as, kind, payment, payment.approvalSteps[0]!.id)
  expectStatus(response, 202)
  expect(response.json<PaymentJson>().status).toBe('APPROVED')
  return response.json<PaymentJson>()
}

export async function getPayment(t: TestApp, as: Credentials, kind: Kind, id: string): Promise<PaymentJson> {
  const response = await t.request({ method: 'GET', url: `${BASE[kind]}/${id}`, as })
  expectStatus(response, 200)
  return response.json<PaymentJson>()
}

/** Waits for the payment to reach one of `statuses` (by default: a settled one). */
export function settled(t: TestApp, as: Credentials, kind: Kind, id: string, statuses: string[] = SETTLED, timeoutMs?: number): Promise<PaymentJson> {
  return until(() => getPayment(t, as, kind, id), (payment) => statuses.includes(payment.status), `${kind} ${id} in ${statuses.join('|')}`, timeoutMs)
}

export async function eventsOf(t: TestApp, as: Credentials, kind: Kind, id: string): Promise<EventJson[]> {
  return listAll<EventJson>(t, `${BASE[kind]}/${id}/events`, as)
}

/** The bank never saw the payment: no instruction at the sandbox bank, and no SENT_TO_BANK event. */
export async function expectNeverSent(t: TestApp, as: Credentials, kind: Kind, paymentId: string): Promise<void> {
  expect((await eventsOf(t, as, kind, paymentId)).map((event) => event.name)).not.toContain('SENT_TO_BANK')
  const instructions = await t.db.database.db.selectFrom('sandbox_instructions').select('id').where('payment_id', '=', paymentId).execute()
  expect(instructions).toEqual([])
}

export async function balance(t: TestApp, as: Credentials, accountId: string, type: 'BOOKED' | 'AVAILABLE'): Promise<number> {
  const response = await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${accountId}/balances?type=${type}&mostRecent=true`, as })
  expectStatus(response, 200)
  return response.json<{ items: Array<{ amount: { value: number } }> }>().items[0]!.amount.value
}

export async function transactionsOf(t: TestApp, as: Credentials, accountId?: string): Promise<TransactionJson[]> {
  return listAll<TransactionJson>(t, `/financial-data/v2/transactions${accountId ? `?accountId=${accountId}` : ''}`, as)
}

/** The bookings of a payment: the transactions whose end-to-end id is the payment's. */
export async function bookingsOf(t: TestApp, as: Credentials, accountId: string, paymentId: string): Promise<TransactionJson[]> {
  return (await transactionsOf(t, as, accountId)).filter((transaction) => transaction.references.endToEndId === endToEndIdOf(paymentId))
}

export async function advanceClock(t: TestApp, as: Credentials, body: { days?: number; to?: string }) {
  const response = await t.request({ method: 'POST', url: '/v1/sandbox/clock:advance', body, as })
  expectStatus(response, 200)
  return response.json<{ previousToday: string; today: string; statusChanges: Array<{ paymentId: string; status: string }> }>()
}

export async function bankToday(t: TestApp, as: Credentials): Promise<string> {
  const response = await t.request({ method: 'GET', url: '/v1/sandbox/clock', as })
  expectStatus(response, 200)
  return response.json<{ today: string }>().today
}

/** A raw request over a real socket, so parallel requests truly overlap in the server. */
export async function overSocket(
  base: string,
  as: Credentials,
  method: 'POST' | 'GET' | 'PATCH',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: basicAuth(as), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: await response.text() }
}
