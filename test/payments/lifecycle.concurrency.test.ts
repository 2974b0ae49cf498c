import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/db/database.js'
import { buildApp } from '../../src/app.js'
import type { ApiApp } from '../../src/http/api-app.js'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import {
  balance,
  bookingsOf,
  createTransfer,
  CREDIT_TRANSFERS,
  eventsOf,
  expectStatus,
  getPayment,
  overSocket,
  settled,
  setup,
  transferBody,
  unscriptedAmount,
  type PaymentJson,
} from './lifecycle-helpers.js'

/**
 * Races over real sockets, so the requests truly overlap in the server (on PostgreSQL in separate
 * transactions): two approvals of the last step approve once, and two payments competing for an
 * account's last funds — submitted by the payment workers of two servers on one database — leave
 * exactly one executed and the other FAILED with AM04.
 */
let t: TestApp
let base: string
/** A second server on the same database with its own connections and its own payment worker, as another process would be. */
let second: { app: ApiApp; database: Database; base: string }

beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: 50 })
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
  const database = openDatabase(t.db.url)
  const app = await buildApp({
    config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent' },
    database,
    paymentWorkerIntervalMilliseconds: 50,
  })
  second = { app, database, base: await app.listen({ host: '127.0.0.1', port: 0 }) }
})
afterAll(async () => {
  await second?.app.close()
  await second?.database.close()
  await t?.close()
})

function approveOver(server: string, as: Credentials, payment: PaymentJson) {
  return overSocket(server, as, 'POST', `${CREDIT_TRANSFERS}/${payment.id}:approve`, { approvalStepId: payment.approvalSteps[0]!.id })
}

/** One 202 and one 409 conflict; the payment is APPROVED once, with one FULLY_APPROVED event. */
async function expectApprovedOnce(responses: Array<{ status: number; body: string }>, as: Credentials, payment: PaymentJson) {
  expect(responses.map((response) => response.status).sort(), JSON.stringify(responses)).toEqual([202, 409])
  const loser = JSON.parse(responses.find((response) => response.status === 409)!.body) as { code: string; message: string }
  expect(loser.code).toBe('conflict')
  // Which 409 the loser gets depends on how far the winner had come when it read the payment; each is right.
  expect(loser.message).toMatch(/^(The payment is [A-Z_]+; only a CREATED payment awaits approval|The approval step \S+ was decided by another request|The approval step \S+ is already APPROVED)$/)
  const events = await eventsOf(t, as, 'CREDIT_TRANSFER', payment.id)
  expect(events.filter((event) => event.name === 'FULLY_APPROVED')).toHaveLength(1)
  const current = await getPayment(t, as, 'CREDIT_TRANSFER', payment.id)
  expect(current.approvalSteps).toHaveLength(1)
  expect(current.approvalSteps[0]!.status).toBe('APPROVED')
  return current
}

describe('two approvals racing on the last step', () => {
  it('the owner twice in parallel, on two servers: approved once', async () => {
    const org = await setup(t, await t.newOrganization('Double click GmbH'))
    for (let round = 0; round < 3; round++) {
      const payment = await createTransfer(t, org.as, transferBody(org.eurAccountIds[0]!, org.supplierAccountId))
      const responses = await Promise.all([approveOver(base, org.as, payment), approveOver(second.base, org.as, payment)])
      const current = await expectApprovedOnce(responses, org.as, payment)
      expect(current.approvalSteps[0]!.approver).toEqual({ id: org.as.userId, username: 'Owner', name: 'Owner' })
    }
  })

  it('two users holding the step’s role: one approves, the other gets 409', async () => {
    const owner = await t.newOrganization('Four eyes GmbH')
    const org = await setup(t, owner)
    const role = await t.request({ method: 'POST', url: '/iam/v2/roles', body: { name: 'treasurer', permissions: ['credit_transfers:read', 'credit_transfers:approve'] }, as: owner })
    expectStatus(role, 201)
    const treasurers: Credentials[] = []
    for (const name of ['Treasurer 1', 'Treasurer 2']) {
      const user = await t.request({ method: 'POST', url: '/iam/v2/users', body: { type: 'PROGRAMMATIC', name, roleId: role.json().id }, as: owner })
      expectStatus(user, 201)
      const key = await t.request({ method: 'POST', url: `/iam/v2/users/${user.json().id}/access-keys`, as: owner })
      expectStatus(key, 201)
      treasurers.push({ organizationId: owner.organizationId, userId: user.json().id, accessKey: key.json().accessKey, secret: key.json().secret, role: 'treasurer' })
    }
    const chain = await t.request({ method: 'POST', url: '/iam/v2/approval-chains', body: { name: 'Treasury', trigger: {}, steps: [{ requiredRoleIds: [role.json().id] }] }, as: owner })
    expectStatus(chain, 201)

    for (let round = 0; round < 3; round++) {
      const payment = await createTransfer(t, owner, transferBody(org.eurAccountIds[0]!, org.supplierAccountId))
      expect(payment.approvalSteps).toEqual([expect.objectContaining({ approvalChainId: chain.json().id, status: 'PENDING' })])
      const responses = await Promise.all([approveOver(base, treasurers[0]!, payment), approveOver(second.base, treasurers[1]!, payment)])
      const current = await expectApprovedOnce(responses, owner, payment)
      const winner = responses.findIndex((response) => response.status === 202)
      const name = `Treasurer ${winner + 1}`
      expect(current.approvalSteps[0]!.approver).toEqual({ id: treasurers[winner]!.userId, username: name, name })
      const approvedEvent = (await eventsOf(t, owner, 'CREDIT_TRANSFER', payment.id)).find((event) => event.name === 'FULLY_APPROVED')
      expect(approvedEvent?.originator).toBe(treasurers[winner]!.userId)
    }
  })
})

describe('two payments racing for the last funds', () => {
  it('executes one and FAILS the other with AM04; the balance drops by one amount', async () => {
    const org = await setup(t, await t.newOrganization('Last funds GmbH'))
    const source = org.eurAccountIds[1]!
    const booked = await balance(t, org.as, source, 'BOOKED')
    const available = await balance(t, org.as, source, 'AVAILABLE')
    expect(available).toBe(booked)
    // Each is more than half of what the account holds: either one fits, both never do.
    const amount = unscriptedAmount(Math.floor(available / 2) + 1)
    const payments = [
      await createTransfer(t, org.as, transferBody(source, org.supplierAccountId, { amount: { currency: 'EUR', value: amount }, reference: 'Race A' })),
      await createTransfer(t, org.as, transferBody(source, org.supplierAccountId, { amount: { currency: 'EUR', value: amount }, reference: 'Race B' })),
    ]
    const approvals = await Promise.all([approveOver(base, org.as, payments[0]!), approveOver(second.base, org.as, payments[1]!)])
    expect(approvals.map((response) => response.status)).toEqual([202, 202])

    const outcomes = await Promise.all(payments.map((payment) => settled(t, org.as, 'CREDIT_TRANSFER', payment.id)))
    // What each ended with, and why, in the message of a failure: the race's outcome depends on the workers' timing.
    const seen = JSON.stringify({ amount, available, outcomes: outcomes.map((payment) => ({ status: payment.status, statusReason: payment.statusReason })) })
    expect(outcomes.map((payment) => payment.status).sort(), seen).toEqual(['FAILED', 'RECONCILED'])
    const failed = outcomes.find((payment) => payment.status === 'FAILED')!
    const executed = outcomes.find((payment) => payment.status === 'RECONCILED')!
    expect(failed.statusReason).toMatchObject({ code: 'AM04' })

    expect(await bookingsOf(t, org.as, source, failed.id)).toEqual([])
    expect(await bookingsOf(t, org.as, source, executed.id)).toEqual([expect.objectContaining({ amount: expect.objectContaining({ value: -amount }) })])
    expect(await balance(t, org.as, source, 'BOOKED')).toBe(booked - amount)
    expect(await balance(t, org.as, source, 'AVAILABLE')).toBe(booked - amount)
    // Each payment was submitted once: one PENDING_SUBMISSION and one SENT_TO_BANK event, whichever worker did it.
    for (const payment of payments) {
      const names = (await eventsOf(t, org.as, 'CREDIT_TRANSFER', payment.id)).map((event) => event.name)
      expect(names.filter((name) => name === 'PENDING_SUBMISSION' || name === 'SENT_TO_BANK')).toEqual(['PENDING_SUBMISSION', 'SENT_TO_BANK'])
    }
  })

  it('spends an account to the cent with many parallel approvals: never overdrawn', async () => {
    const org = await setup(t, await t.newOrganization('Many payments GmbH'))
    const source = org.eurAccountIds[1]!
    const booked = await balance(t, org.as, source, 'BOOKED')
    const count = 6
    // Together they need 1.5 × the balance: some must fail, and what executes fits the balance.
    const amount = unscriptedAmount(Math.floor((booked * 1.5) / count))
    const payments: PaymentJson[] = []
    for (let index = 0; index < count; index++) {
      payments.push(await createTransfer(t, org.as, transferBody(source, org.supplierAccountId, { amount: { currency: 'EUR', value: amount }, reference: `Race ${index}` })))
    }
    const approvals = await Promise.all(payments.map((payment, index) => approveOver(index % 2 === 0 ? base : second.base, org.as, payment)))
    expect(approvals.map((response) => response.status)).toEqual(Array(count).fill(202))

    const outcomes = await Promise.all(payments.map((payment) => settled(t, org.as, 'CREDIT_TRANSFER', payment.id)))
    const executed = outcomes.filter((payment) => payment.status === 'RECONCILED')
    const failed = outcomes.filter((payment) => payment.status === 'FAILED')
    expect(executed.length + failed.length).toBe(count)
    expect(executed).toHaveLength(Math.floor(booked / amount))
    for (const payment of failed) expect(payment.statusReason?.code).toBe('AM04')
    const after = await balance(t, org.as, source, 'BOOKED')
    expect(after).toBe(booked - executed.length * amount)
    expect(after).toBeGreaterThanOrEqual(0)
  })
})
