import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { counterpartyBody } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CHAINS, createRole, expectStatus, member, roleId, type Member } from '../iam/iam-helpers.js'
import { approve, createDirectDebit, createMandate, directDebitBody, externalAccount, type PaymentJson } from './lifecycle-helpers.js'

/**
 * approvableBy=me on the payment lists (issue 11: the dashboard's Approvals and its count): exactly the CREATED payments
 * with a PENDING step the caller may approve by the rules of :approve — role or user named, the creator only where the
 * step allows, not a second step of a chain — paged by the same tokens as any list.
 */

const CREDIT_TRANSFERS = '/payments/v2/credit-transfers'
const today = new Date().toISOString().slice(0, 10)

let t: TestApp
beforeAll(async () => {
  // The payments must stay CREATED or APPROVED: the bank's processing is not under test.
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

interface Organization {
  owner: Credentials
  sourceId: string
  destinationId: string
  roleA: string
  clerk: Member
  maker1: Member
  maker2: Member
  a1: Member
  a2: Member
  named: Member
  reader: Member
}

/**
 * Chains: a clerk's payment needs two steps of role A (one chain: separation of duties); a maker-checker's needs one
 * step of their own role that its creator may not approve; a payment of 777.00 also needs one user by name.
 */
async function organization(): Promise<Organization> {
  const owner = await t.newOrganization('Approvable GmbH')
  const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR', as: owner })).json()
  const counterparty = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody(), as: owner })
  expectStatus(counterparty, 201)
  const approveCt = ['credit_transfers:read', 'credit_transfers:approve']
  const roleA = (await createRole(t, 'approver-a', approveCt, owner)).id
  const clerkRole = (await createRole(t, 'clerk', ['credit_transfers:read', 'credit_transfers:create'], owner)).id
  const makerRole = (await createRole(t, 'maker-checker', [...approveCt, 'credit_transfers:create'], owner)).id
  const readerRole = (await createRole(t, 'reader', ['credit_transfers:read'], owner)).id
  const org: Organization = {
    owner,
    sourceId: accounts.items[0].id,
    destinationId: counterparty.json().accounts[0].id,
    roleA,
    clerk: await member(t, clerkRole, 'Clerk', owner),
    maker1: await member(t, makerRole, 'Maker 1', owner),
    maker2: await member(t, makerRole, 'Maker 2', owner),
    a1: await member(t, roleA, 'Approver A1', owner),
    a2: await member(t, roleA, 'Approver A2', owner),
    named: await member(t, makerRole, 'Named approver', owner),
    reader: await member(t, readerRole, 'Reader', owner),
  }
  const chains = [
    { trigger: { creatorRoleIds: { in: [clerkRole] } }, steps: [{ requiredRoleIds: [roleA] }, { requiredRoleIds: [roleA] }] },
    { trigger: { creatorRoleIds: { in: [makerRole] } }, steps: [{ requiredRoleIds: [makerRole], allowCreatorApproval: false }] },
    { trigger: { currency: 'EUR', amountAtLeast: { currency: 'EUR', value: 77_700 }, amountBelow: { currency: 'EUR', value: 77_701 } }, steps: [{ requiredUserIds: [org.named.userId] }] },
  ]
  for (const chain of chains) expectStatus(await t.request({ method: 'POST', url: CHAINS, body: { name: 'Chain', ...chain }, as: owner }), 201)
  return org
}

async function pay(org: Organization, as: Credentials, value = 12_500): Promise<PaymentJson> {
  const body = {
    amount: { currency: 'EUR', value },
    date: today,
    scheme: 'SCT',
    source: { type: 'ACCOUNT', id: org.sourceId },
    destination: { type: 'EXTERNAL_ACCOUNT', id: org.destinationId },
    reference: `Invoice ${value}`,
  }
  const response = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body, as })
  expectStatus(response, 201)
  return response.json<PaymentJson>()
}

async function listPage(url: string, as: Credentials): Promise<{ items: PaymentJson[]; nextToken: string }> {
  const response = await t.request({ method: 'GET', url, as })
  expectStatus(response, 200)
  return response.json()
}

/** The ids approvableBy=me lists for `as`, following every page of `limit`. */
async function approvable(as: Credentials, query = '', limit = 100): Promise<string[]> {
  const ids: string[] = []
  let token = ''
  do {
    const page = await listPage(`${CREDIT_TRANSFERS}?approvableBy=me&limit=${limit}${query}${token ? `&token=${token}` : ''}`, as)
    ids.push(...page.items.map((item) => item.id))
    token = page.nextToken
  } while (token)
  return ids
}

describe('approvableBy=me on credit transfers', () => {
  let org: Organization
  let clerks: PaymentJson
  let makers: PaymentJson
  let namedOne: PaymentJson
  beforeAll(async () => {
    org = await organization()
    clerks = await pay(org, org.clerk)
    makers = await pay(org, org.maker1)
    namedOne = await pay(org, org.clerk, 77_700)
  })

  it('lists a payment to the role its pending step names, and not to others', async () => {
    expect(clerks.approvalSteps).toHaveLength(2)
    expect(await approvable(org.a1)).toEqual(expect.arrayContaining([clerks.id]))
    expect(await approvable(org.maker2)).not.toContain(clerks.id)
    // The Owner approves only the payments no chain covers: none here.
    expect(await approvable(org.owner)).toEqual([])
  })

  it('lists a payment to the user a step names, by name and not by role', async () => {
    const steps = namedOne.approvalSteps as Array<{ requiredUserIds?: string[] }>
    expect(steps.some((step) => step.requiredUserIds?.includes(org.named.userId))).toBe(true)
    expect(await approvable(org.named)).toEqual(expect.arrayContaining([namedOne.id, makers.id]))
    expect(await approvable(org.maker2)).toEqual([makers.id])
  })

  it("keeps the creator's payment from them where the step does not let creators approve", async () => {
    expect(await approvable(org.maker1)).not.toContain(makers.id)
    expect(await approvable(org.maker2)).toContain(makers.id)
  })

  it('drops the payment for whoever approved the other step of its chain (separation of duties), not for the others', async () => {
    const fresh = await pay(org, org.clerk, 12_600)
    expectStatus(await approve(t, org.a1, 'CREDIT_TRANSFER', fresh, fresh.approvalSteps[0]!.id), 202)
    expect(await approvable(org.a1)).not.toContain(fresh.id)
    expect(await approvable(org.a2)).toContain(fresh.id)
    expectStatus(await approve(t, org.a2, 'CREDIT_TRANSFER', fresh, fresh.approvalSteps[1]!.id), 202)
    // APPROVED now: waiting for nobody.
    expect(await approvable(org.a2)).not.toContain(fresh.id)
  })

  it('lists nothing to a role without the approve permission, and goes with the other filters', async () => {
    expect(await approvable(org.reader)).toEqual([])
    expect(await approvable(org.a1, '&status=APPROVED')).toEqual([])
    expect(await approvable(org.a1, '&amount[gte]=77700&currency=EUR')).toEqual([namedOne.id])
  })

  it('refuses a value other than me', async () => {
    const response = await t.request({ method: 'GET', url: `${CREDIT_TRANSFERS}?approvableBy=someone`, as: org.a1 })
    expectStatus(response, 400)
    expect(response.json<{ details: Array<{ field: string }> }>().details[0]!.field).toBe('approvableBy')
  })
})

describe('approvableBy=me pages', () => {
  it("pages through exactly the approvable payments, newest date first, past candidates the rules drop (the creator's)", async () => {
    const org = await organization()
    // maker2 may approve maker1's payments; maker2's own are candidates (their role is named) that the creator rule drops.
    const theirs: PaymentJson[] = []
    for (let index = 0; index < 5; index += 1) {
      theirs.push(await pay(org, org.maker1, 20_000 + index))
      await pay(org, org.maker2, 30_000 + index)
      await pay(org, org.maker2, 40_000 + index)
    }
    const everything = (await listPage(`${CREDIT_TRANSFERS}?limit=100`, org.owner)).items.map((item) => item.id)
    const expected = everything.filter((id) => theirs.some((payment) => payment.id === id))
    expect(expected).toHaveLength(5)
    for (const limit of [1, 2, 5, 100]) expect(await approvable(org.maker2, '', limit)).toEqual(expected)
    const first = await listPage(`${CREDIT_TRANSFERS}?approvableBy=me&limit=5`, org.maker2)
    expect(first.nextToken).toBe('')
  })

  it('binds its token to the filter and to the caller', async () => {
    const org = await organization()
    await pay(org, org.maker1)
    await pay(org, org.maker1, 12_600)
    const first = await listPage(`${CREDIT_TRANSFERS}?approvableBy=me&limit=1`, org.maker2)
    expect(first.nextToken).not.toBe('')
    for (const [url, as] of [
      [`${CREDIT_TRANSFERS}?limit=1&token=${first.nextToken}`, org.maker2],
      [`${CREDIT_TRANSFERS}?approvableBy=me&limit=1&token=${first.nextToken}`, org.named],
    ] as const) {
      const response = await t.request({ method: 'GET', url, as })
      expectStatus(response, 400)
      expect(response.json<{ code: string }>().code).toBe('invalid_token')
    }
  })
})

describe('approvableBy=me on direct debits', () => {
  it("lists the Owner's own direct debit to the Owner (the fallback step lets its creator approve), not to a role without direct_debits:approve", async () => {
    const owner = await t.newOrganization('Collections GmbH')
    const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR', as: owner })).json()
    const debtor = await externalAccount(t, owner, 'Kunde GmbH', 'DE89370400440532013000')
    const mandate = await createMandate(t, owner, debtor, 'MANDATE-APPROVABLE')
    const debit = await createDirectDebit(t, owner, directDebitBody(debtor, accounts.items[0].id, { mandateId: mandate.id }))
    const reader = await member(t, (await createRole(t, 'debit-reader', ['direct_debits:read'], owner)).id, 'Reader', owner)
    const url = '/payments/v2/direct-debits?approvableBy=me'
    expect((await listPage(url, owner)).items.map((item) => item.id)).toEqual([debit.id])
    expect((await listPage(url, reader)).items).toEqual([])
    expect(debit.approvalSteps).toMatchObject([{ requiredRoleIds: [await roleId(t, 'owner', owner)], allowCreatorApproval: true }])
  })
})
