import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { ownerApprovalChainId } from '../../src/payments/approvals/approval-rules.js'
import { counterpartyBody } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CHAINS, createRole, expectError, expectStatus, member, patch, remove, roleId, type Member } from './iam-helpers.js'

/**
 * The approval paths of issue 4 (spec: Approval rules), end to end over HTTP on credit transfers.
 * Chains apply to every new payment of an organization, so each test gets an organization of its own.
 */

const CREDIT_TRANSFERS = '/payments/v2/credit-transfers'
const today = new Date().toISOString().slice(0, 10)

let t: TestApp

beforeAll(async () => {
  // Approvals are under test here, not what the bank does with an approved payment afterwards.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

interface Step {
  id: string
  approvalChainId?: string
  requiredRoleIds?: string[]
  requiredUserIds?: string[]
  status: 'PENDING' | 'APPROVED' | 'REJECTED'
  approver?: { id: string }
  autoApproved: boolean
  allowCreatorApproval: boolean
}
interface Payment {
  id: string
  status: string
  version: number
  creatorUserId: string
  approvalSteps: Step[]
}

/** An organization with a clerk who creates payments and approvers holding roles A and B. */
interface Organization {
  owner: Credentials
  ownerRoleId: string
  sourceId: string
  destinationId: string
  roleA: string
  roleB: string
  makerChecker: string
  clerk: Member
  a1: Member
  a2: Member
  b1: Member
}

async function organization(): Promise<Organization> {
  const owner = await t.newOrganization('Approvals GmbH')
  const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR', as: owner })).json()
  const counterparty = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody(), as: owner })
  expectStatus(counterparty, 201)
  const approve = ['credit_transfers:read', 'credit_transfers:approve']
  const roleA = (await createRole(t, 'approver-a', approve, owner)).id
  const roleB = (await createRole(t, 'approver-b', approve, owner)).id
  const clerkRole = (await createRole(t, 'clerk', ['credit_transfers:read', 'credit_transfers:create'], owner)).id
  const makerChecker = (await createRole(t, 'maker-checker', [...approve, 'credit_transfers:create'], owner)).id
  return {
    owner,
    ownerRoleId: await roleId(t, 'owner', owner),
    sourceId: accounts.items[0].id,
    destinationId: counterparty.json().accounts[0].id,
    roleA,
    roleB,
    makerChecker,
    clerk: await member(t, clerkRole, 'Clerk', owner),
    a1: await member(t, roleA, 'Approver A1', owner),
    a2: await member(t, roleA, 'Approver A2', owner),
    b1: await member(t, roleB, 'Approver B1', owner),
  }
}

async function chain(org: Organization, body: Record<string, unknown>): Promise<{ id: string; etag: string }> {
  const response = await t.request({ method: 'POST', url: CHAINS, body: { name: 'Chain', trigger: {}, ...body }, as: org.owner })
  expectStatus(response, 201)
  return response.json()
}

async function pay(org: Organization, as: Credentials, value = 12_500): Promise<Payment> {
  const response = await t.request({
    method: 'POST',
    url: CREDIT_TRANSFERS,
    body: {
      amount: { currency: 'EUR', value },
      date: today,
      scheme: 'SCT',
      source: { type: 'ACCOUNT', id: org.sourceId },
      destination: { type: 'EXTERNAL_ACCOUNT', id: org.destinationId },
      reference: 'Invoice 2026-114',
    },
    as,
  })
  expectStatus(response, 201)
  return response.json<Payment>()
}

function approve(payment: Payment, step: Step, as: Credentials): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${payment.id}:approve`, body: { approvalStepId: step.id }, as })
}

async function approved(payment: Payment, step: Step, as: Credentials): Promise<Payment> {
  const response = await approve(payment, step, as)
  expectStatus(response, 202)
  return response.json<Payment>()
}

async function events(org: Organization, payment: Payment): Promise<Array<{ name: string; originator: string; message?: string; entityVersion: number }>> {
  const response = await t.request({ method: 'GET', url: `${CREDIT_TRANSFERS}/${payment.id}/events`, as: org.owner })
  expectStatus(response, 200)
  return response.json().items
}

describe('no chain, or none matching: the Owner approves', () => {
  it('gives a payment the Owner step, which the Owner approves even on their own payment', async () => {
    const org = await organization()
    const own = await pay(org, org.owner)
    expect(own.approvalSteps).toEqual([expect.objectContaining({ requiredRoleIds: [org.ownerRoleId], status: 'PENDING', allowCreatorApproval: true })])
    // The Owner's fallback is named as a chain of its own (the reference requires every step to name one).
    expect(own.approvalSteps[0]!.approvalChainId).toBe(ownerApprovalChainId(org.owner.organizationId))
    expect((await approved(own, own.approvalSteps[0]!, org.owner)).status).toBe('APPROVED')

    const clerks = await pay(org, org.clerk)
    expectError(await approve(clerks, clerks.approvalSteps[0]!, org.a1), 403, 'forbidden')
    expect(clerks.approvalSteps[0]!.approvalChainId).toBe(own.approvalSteps[0]!.approvalChainId)
    const done = await approved(clerks, clerks.approvalSteps[0]!, org.owner)
    expect(done).toMatchObject({ status: 'APPROVED', approvalSteps: [{ status: 'APPROVED', approver: { id: org.owner.userId } }] })
  })

  it('falls back to the Owner when chains exist but none matches', async () => {
    const org = await organization()
    await chain(org, { trigger: { currency: 'SEK' }, steps: [{ requiredRoleIds: [org.roleA] }] })
    await chain(org, { trigger: { creatorRoleIds: { in: [org.roleB] } }, steps: [{ requiredRoleIds: [org.roleA] }] })
    const payment = await pay(org, org.clerk)
    expect(payment.approvalSteps).toEqual([expect.objectContaining({ requiredRoleIds: [org.ownerRoleId], status: 'PENDING' })])
  })
})

describe('threshold auto-approval', () => {
  it('approves a payment below autoApproveBelow at creation, by KASSA, and asks for the steps above it', async () => {
    const org = await organization()
    const created = await chain(org, { steps: [{ requiredRoleIds: [org.roleA] }], autoApproveBelow: { currency: 'EUR', stringValue: '500.00' } })

    const small = await pay(org, org.clerk, 49_999)
    expect(small.status).toBe('APPROVED')
    expect(small.approvalSteps).toEqual([expect.objectContaining({ approvalChainId: created.id, autoApproved: true, status: 'APPROVED' })])
    const history = await events(org, small)
    expect(history.slice(0, 2).map((event) => event.name)).toEqual(['CREATED', 'FULLY_APPROVED'])
    expect(history[1]).toMatchObject({ originator: 'KASSA', message: 'Automatically approved' })

    const large = await pay(org, org.clerk, 50_000)
    expect(large.status).toBe('CREATED')
    expect(large.approvalSteps).toEqual([expect.objectContaining({ requiredRoleIds: [org.roleA], autoApproved: false, status: 'PENDING' })])
  })

  it('approves every matching payment of a straight-through chain', async () => {
    const org = await organization()
    await chain(org, { trigger: { paymentTypes: ['CREDIT_TRANSFER'] }, steps: [], autoApprove: true })
    const payment = await pay(org, org.clerk, 9_999_999)
    expect(payment).toMatchObject({ status: 'APPROVED', approvalSteps: [{ autoApproved: true }] })
  })
})

describe('chains with steps', () => {
  it('needs two approvals by two users holding the two roles', async () => {
    const org = await organization()
    await chain(org, { steps: [{ requiredRoleIds: [org.roleA] }, { requiredRoleIds: [org.roleB] }] })
    const payment = await pay(org, org.clerk)
    const [first, second] = payment.approvalSteps
    expect([first?.requiredRoleIds, second?.requiredRoleIds]).toEqual([[org.roleA], [org.roleB]])

    // A user without the step's role gets 403, as does the Owner: the chain, not the Owner, decides.
    expect(expectError(await approve(payment, first!, org.b1), 403, 'forbidden').message).toMatch(/didn't match/)
    expectError(await approve(payment, first!, org.owner), 403, 'forbidden')

    const half = await approved(payment, first!, org.a1)
    expect(half.status).toBe('CREATED')
    expect(half.approvalSteps.map((step) => step.status)).toEqual(['APPROVED', 'PENDING'])
    const full = await approved(half, second!, org.b1)
    expect(full.status).toBe('APPROVED')
    expect(full.approvalSteps.map((step) => step.approver?.id)).toEqual([org.a1.userId, org.b1.userId])
    const history = await events(org, full)
    expect(history.find((event) => event.name === 'FULLY_APPROVED')).toMatchObject({ originator: org.b1.userId })
    // One event per version: the first step's approval is recorded too.
    expect(history.slice(0, 3).map((event) => [event.name, event.entityVersion])).toEqual([
      ['CREATED', 1],
      ['APPROVAL_STEP_APPROVED', 2],
      ['FULLY_APPROVED', 3],
    ])
    expectError(await approve(full, second!, org.b1), 409, 'conflict')
  })

  it('blocks the creator unless the step allows creator approval', async () => {
    const org = await organization()
    const maker = await member(t, org.makerChecker, 'Maker', org.owner)
    const checker = await member(t, org.makerChecker, 'Checker', org.owner)
    const fourEyes = await chain(org, { steps: [{ requiredRoleIds: [org.makerChecker] }] })
    const payment = await pay(org, maker)
    expect(expectError(await approve(payment, payment.approvalSteps[0]!, maker), 403, 'forbidden').message).toMatch(/creator/)
    expect((await approved(payment, payment.approvalSteps[0]!, checker)).status).toBe('APPROVED')

    expectStatus(await patch(t, `${CHAINS}/${fourEyes.id}`, fourEyes.etag, [{ op: 'add', path: '/steps/0/allowCreatorApproval', value: true }], org.owner), 200)
    const own = await pay(org, maker)
    expect(own.approvalSteps[0]).toMatchObject({ allowCreatorApproval: true })
    expect((await approved(own, own.approvalSteps[0]!, maker)).status).toBe('APPROVED')
  })

  it('lets one user approve only one step of a chain, but a step in each of two chains', async () => {
    const org = await organization()
    await chain(org, { steps: [{ requiredRoleIds: [org.roleA] }, { requiredRoleIds: [org.roleA] }] })
    const payment = await pay(org, org.clerk)
    const [first, second] = payment.approvalSteps
    await approved(payment, first!, org.a1)
    expect(expectError(await approve(payment, second!, org.a1), 403, 'forbidden').message).toMatch(/two steps of the same approval chain/)
    expect((await approved(payment, second!, org.a2)).status).toBe('APPROVED')

    const other = await organization()
    const one = await chain(other, { steps: [{ requiredRoleIds: [other.roleA] }] })
    const two = await chain(other, { steps: [{ requiredRoleIds: [other.roleA] }] })
    const both = await pay(other, other.clerk)
    expect(both.approvalSteps.map((step) => step.approvalChainId)).toEqual([one.id, two.id])
    await approved(both, both.approvalSteps[0]!, other.a1)
    expect((await approved(both, both.approvalSteps[1]!, other.a1)).status).toBe('APPROVED')
  })

  it('lets named users approve a step, whatever their role, and nobody else', async () => {
    const org = await organization()
    await chain(org, { steps: [{ requiredUserIds: [org.b1.userId] }] })
    const payment = await pay(org, org.clerk)
    expect(payment.approvalSteps[0]).toMatchObject({ requiredUserIds: [org.b1.userId] })
    expect(payment.approvalSteps[0]).not.toHaveProperty('requiredRoleIds')
    expectError(await approve(payment, payment.approvalSteps[0]!, org.a1), 403, 'forbidden')
    expectError(await approve(payment, payment.approvalSteps[0]!, org.owner), 403, 'forbidden')
    expect((await approved(payment, payment.approvalSteps[0]!, org.b1)).status).toBe('APPROVED')
  })

  it('applies a chain only to payments its creator-role condition covers', async () => {
    const org = await organization()
    const clerkRole = org.clerk.roleId
    await chain(org, { trigger: { creatorRoleIds: { in: [clerkRole] } }, steps: [{ requiredRoleIds: [org.roleA] }] })
    expect((await pay(org, org.clerk)).approvalSteps[0]).toMatchObject({ requiredRoleIds: [org.roleA] })
    expect((await pay(org, org.owner)).approvalSteps[0]).toMatchObject({ requiredRoleIds: [org.ownerRoleId] })
  })
})

describe('rejection', () => {
  it('lets a user with the approve permission reject without the step role; the payment is final', async () => {
    const org = await organization()
    await chain(org, { steps: [{ requiredRoleIds: [org.roleA] }] })
    const payment = await pay(org, org.clerk)
    const rejected = await t.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${payment.id}:reject`, body: { reason: 'Duplicate invoice' }, as: org.b1 })
    expectStatus(rejected, 202)
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', approvalSteps: [{ status: 'REJECTED', approver: { id: org.b1.userId } }] })
    expect((await events(org, payment)).at(-1)).toMatchObject({ name: 'REJECTED', originator: org.b1.userId, message: 'Duplicate invoice' })
    expectError(await approve(payment, payment.approvalSteps[0]!, org.a1), 409, 'conflict')
    // The clerk cannot decide at all: their role lacks credit_transfers:approve.
    expectError(await t.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${payment.id}:reject`, body: {}, as: org.clerk }), 403, 'forbidden')
  })
})

describe('chain changes', () => {
  it('affect only payments created afterwards', async () => {
    const org = await organization()
    const created = await chain(org, { steps: [{ requiredRoleIds: [org.roleA] }] })
    const before = await pay(org, org.clerk)

    const edited = await patch(t, `${CHAINS}/${created.id}`, created.etag, [{ op: 'replace', path: '/steps/0/requiredRoleIds', value: [org.roleB] }], org.owner)
    expectStatus(edited, 200)
    const after = await pay(org, org.clerk)
    expect(after.approvalSteps[0]).toMatchObject({ requiredRoleIds: [org.roleB] })

    const unchanged = (await t.request({ method: 'GET', url: `${CREDIT_TRANSFERS}/${before.id}`, as: org.owner })).json<Payment>()
    expect(unchanged.approvalSteps).toEqual(before.approvalSteps)
    expectError(await approve(before, before.approvalSteps[0]!, org.b1), 403, 'forbidden')
    expect((await approved(before, before.approvalSteps[0]!, org.a1)).status).toBe('APPROVED')

    expectStatus(await remove(t, `${CHAINS}/${created.id}`, edited.json().etag, org.owner), 204)
    expect((await pay(org, org.clerk)).approvalSteps[0]).toMatchObject({ requiredRoleIds: [org.ownerRoleId] })
    expect((await approved(after, after.approvalSteps[0]!, org.b1)).status).toBe('APPROVED')
  })
})
