import { expect } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { submitPayment } from '../../src/payments/processing/payment-submitter.js'
import type { TestApp } from '../support/test-app.js'
import { approveAsOwner, expectStatus, type EventJson, type PaymentJson } from '../payments/lifecycle-helpers.js'

/** Shared steps of the pending-transaction tests. */

export const PENDING_TRANSACTIONS = '/financial-data/v2/pending-transactions'

export interface PendingJson {
  id: string
  organizationId: string
  accountId: string
  amount: { currency: string; value: number; stringValue: string }
  date: string
  valueDate: string
  description: string
  references: { endToEndId?: string; entryReference: string }
  bankTransactionCode?: { domain?: string; family?: string; subfamily?: string }
  returned: boolean
  status: 'PENDING' | 'BOOKED' | 'WITHDRAWN'
  bookedTransactionId?: string
  version: number
  etag: string
}

export interface PendingPage {
  items: PendingJson[]
  nextToken: string
  token: string
  limit: number
}

export async function listPending(t: TestApp, as: Credentials, query = ''): Promise<PendingPage> {
  const response = await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}${query}`, as })
  expectStatus(response, 200)
  return response.json<PendingPage>()
}

export async function getPending(t: TestApp, as: Credentials, id: string): Promise<PendingJson> {
  const response = await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}/${id}`, as })
  expectStatus(response, 200)
  return response.json<PendingJson>()
}

export async function pendingEvents(t: TestApp, as: Credentials, id: string): Promise<EventJson[]> {
  const response = await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}/${id}/events`, as })
  expectStatus(response, 200)
  return response.json<{ items: EventJson[] }>().items
}

/** Approves the payment and runs the submission the payment worker would (the tests run without it): the bank has it. */
export async function approveAndSubmit(t: TestApp, as: Credentials, payment: PaymentJson): Promise<void> {
  await approveAsOwner(t, as, 'CREDIT_TRANSFER', payment)
  const row = await t.db.database.db.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow()
  expect(await submitPayment(t.db.database, row)).toBe(true)
}
