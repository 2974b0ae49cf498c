import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CHAINS, MISSING_ID, createRole, createUser, expectError, expectStatus, patch, remove, roleId } from './iam-helpers.js'

let t: TestApp
let approverRoleId: string
let userId: string
let eurAccountId: string
let sekAccountId: string

interface ChainJson {
  id: string
  name: string
  trigger: Record<string, unknown>
  steps: Array<{ requiredRoleIds: string[]; requiredUserIds: string[]; allowCreatorApproval: boolean }>
  autoApprove: boolean
  autoApproveBelow?: { currency: string; value: number; stringValue: string }
  version: number
  etag: string
}

beforeAll(async () => {
  t = await startTestApp()
  approverRoleId = (await createRole(t, 'approver', ['credit_transfers:read', 'credit_transfers:approve'])).id
  userId = (await createUser(t, { type: 'PROGRAMMATIC', name: 'Named', roleId: await roleId(t, 'read-only') })).id
  const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts' })).json<{ items: Array<{ id: string; currency: string }> }>().items
  eurAccountId = accounts.find((account) => account.currency === 'EUR')!.id
  sekAccountId = accounts.find((account) => account.currency === 'SEK')!.id
})
afterAll(() => t.close())

function chain(overrides: Record<string, unknown> = {}) {
  return { name: 'Large EUR payments', trigger: { currency: 'EUR' }, steps: [{ requiredRoleIds: [approverRoleId] }], ...overrides }
}

async function createChain(overrides: Record<string, unknown> = {}): Promise<ChainJson> {
  const response = await t.request({ method: 'POST', url: CHAINS, body: chain(overrides) })
  expectStatus(response, 201)
  return response.json<ChainJson>()
}

describe('approval chains: create, read, list', () => {
  it('creates a chain with every kind of condition, amounts in the chain currency', async () => {
    const created = await createChain({
      name: 'Everything',
      trigger: {
        paymentTypes: ['CREDIT_TRANSFER'],
        accountIds: { in: [eurAccountId] },
        creatorRoleIds: { notIn: [approverRoleId] },
        amountAtLeast: { currency: 'EUR', stringValue: '1000.00' },
        amountBelow: { currency: 'EUR', value: 5_000_000 },
      },
      steps: [{ requiredRoleIds: [approverRoleId] }, { requiredUserIds: [userId], allowCreatorApproval: true }],
      autoApproveBelow: { currency: 'EUR', value: 250_000 },
    })
    expect(created).toMatchObject({
      name: 'Everything',
      trigger: {
        paymentTypes: ['CREDIT_TRANSFER'],
        accountIds: { in: [eurAccountId] },
        creatorRoleIds: { notIn: [approverRoleId] },
        currency: 'EUR',
        amountAtLeast: { currency: 'EUR', value: 100_000, stringValue: '1000.00' },
        amountBelow: { currency: 'EUR', value: 5_000_000, stringValue: '50000.00' },
      },
      steps: [
        { requiredRoleIds: [approverRoleId], requiredUserIds: [], allowCreatorApproval: false },
        { requiredRoleIds: [], requiredUserIds: [userId], allowCreatorApproval: true },
      ],
      autoApprove: false,
      autoApproveBelow: { currency: 'EUR', value: 250_000, stringValue: '2500.00' },
      version: 1,
      etag: 'version:1',
    })
    const fetched = await t.request({ method: 'GET', url: `${CHAINS}/${created.id}` })
    expectStatus(fetched, 200)
    expect(fetched.json()).toEqual(created)
    const listed = (await t.request({ method: 'GET', url: CHAINS })).json<{ items: ChainJson[] }>().items
    expect(listed.map((item) => item.id)).toContain(created.id)
  })

  it('sets trigger.currency from autoApproveBelow, and creates a straight-through chain without steps', async () => {
    const threshold = await createChain({ trigger: {}, autoApproveBelow: { currency: 'SEK', value: 100 } })
    expect(threshold.trigger).toEqual({ currency: 'SEK' })
    const straightThrough = await createChain({ trigger: { paymentTypes: ['DIRECT_DEBIT'] }, steps: [], autoApprove: true })
    expect(straightThrough).toMatchObject({ autoApprove: true, steps: [] })
  })
})

describe('approval chains: validation', () => {
  const cases: Array<[string, () => Record<string, unknown>, string]> = [
    ['no name', () => ({ name: undefined }), 'name'],
    ['no trigger', () => ({ trigger: undefined }), 'trigger'],
    ['an unknown trigger condition', () => ({ trigger: { colour: 'red' } }), 'trigger.colour'],
    ['an unknown payment type', () => ({ trigger: { paymentTypes: ['CHEQUE'] } }), 'trigger.paymentTypes.0'],
    ['an unknown currency', () => ({ trigger: { currency: 'ABC' } }), 'trigger.currency'],
    ['an empty account condition', () => ({ trigger: { accountIds: {} } }), 'trigger.accountIds'],
    ['an account of nobody', () => ({ trigger: { accountIds: { in: [MISSING_ID] } } }), 'trigger.accountIds.in.0'],
    ['an account both in and not in', () => ({ trigger: { accountIds: { in: [eurAccountId], notIn: [eurAccountId] } } }), 'trigger.accountIds.notIn.0'],
    ['a creator role of nobody', () => ({ trigger: { creatorRoleIds: { in: [MISSING_ID] } } }), 'trigger.creatorRoleIds.in.0'],
    ['a threshold in another currency', () => ({ trigger: { currency: 'EUR', amountBelow: { currency: 'SEK', value: 100 } } }), 'trigger.amountBelow.currency'],
    ['a zero threshold', () => ({ trigger: { amountAtLeast: { currency: 'EUR', value: 0 } } }), 'trigger.amountAtLeast.value'],
    ['a threshold with too many decimals', () => ({ trigger: { amountBelow: { currency: 'EUR', stringValue: '1.001' } } }), 'trigger.amountBelow.stringValue'],
    ['an empty amount range', () => ({ trigger: { amountAtLeast: { currency: 'EUR', value: 500 }, amountBelow: { currency: 'EUR', value: 500 } } }), 'trigger.amountBelow'],
    ['autoApproveBelow in another currency', () => ({ autoApproveBelow: { currency: 'SEK', value: 100 } }), 'autoApproveBelow.currency'],
    ['autoApproveBelow with autoApprove', () => ({ steps: [], autoApprove: true, autoApproveBelow: { currency: 'EUR', value: 100 } }), 'autoApproveBelow'],
    ['autoApproveBelow under amountAtLeast', () => ({ trigger: { amountAtLeast: { currency: 'EUR', value: 500 } }, autoApproveBelow: { currency: 'EUR', value: 400 } }), 'autoApproveBelow.value'],
    ['no steps', () => ({ steps: [] }), 'steps'],
    ['no steps key', () => ({ steps: undefined }), 'steps'],
    ['steps with autoApprove', () => ({ autoApprove: true }), 'steps'],
    ['eleven steps', () => ({ steps: Array.from({ length: 11 }, () => ({ requiredRoleIds: [approverRoleId] })) }), 'steps'],
    ['a step without approvers', () => ({ steps: [{ allowCreatorApproval: true }] }), 'steps.0'],
    ['a step with an unknown field', () => ({ steps: [{ requiredRoleIds: [approverRoleId], quorum: 2 }] }), 'steps.0.quorum'],
    ['a role of nobody', () => ({ steps: [{ requiredRoleIds: [approverRoleId] }, { requiredRoleIds: [MISSING_ID] }] }), 'steps.1.requiredRoleIds.0'],
    ['a user of nobody', () => ({ steps: [{ requiredUserIds: [userId, MISSING_ID] }] }), 'steps.0.requiredUserIds.1'],
    ['a role id that is no UUID', () => ({ steps: [{ requiredRoleIds: ['approver'] }] }), 'steps.0.requiredRoleIds.0'],
    ['one named user for two steps', () => ({ steps: [{ requiredUserIds: [userId] }, { requiredUserIds: [userId] }] }), 'steps.1.requiredUserIds'],
  ]
  it.each(cases)('refuses %s', async (_, overrides, field) => {
    const body = Object.fromEntries(Object.entries(chain(overrides())).filter(([, value]) => value !== undefined))
    expectError(await t.request({ method: 'POST', url: CHAINS, body }), 400, 'invalid_request', field)
  })

  it('refuses an account in another currency than the chain applies to', async () => {
    expectError(
      await t.request({ method: 'POST', url: CHAINS, body: chain({ trigger: { currency: 'EUR', accountIds: { in: [sekAccountId] } } }) }),
      400,
      'invalid_request',
      'trigger.accountIds.in.0',
    )
  })

  it("refuses another organization's roles, users and accounts", async () => {
    const other = await t.newOrganization()
    const body = chain({ trigger: { accountIds: { in: [eurAccountId] } }, steps: [{ requiredRoleIds: [await roleId(t, 'owner', other)] }] })
    expectError(await t.request({ method: 'POST', url: CHAINS, body }), 400, 'invalid_request', 'steps.0.requiredRoleIds.0')
    expectError(await t.request({ method: 'POST', url: CHAINS, body: chain(), as: other }), 400, 'invalid_request', 'steps.0.requiredRoleIds.0')
    expectError(
      await t.request({ method: 'POST', url: CHAINS, body: chain({ trigger: { accountIds: { in: [eurAccountId] } }, steps: [{ requiredUserIds: [other.userId] }] }), as: other }),
      400,
      'invalid_request',
      'trigger.accountIds.in.0',
    )
  })
})

describe('approval chains: update and delete', () => {
  it('patches a chain with If-Match and validates the result as a new chain', async () => {
    const created = await createChain()
    const url = `${CHAINS}/${created.id}`
    const patched = await patch(t, url, created.etag, [
      { op: 'replace', path: '/name', value: 'Renamed' },
      { op: 'add', path: '/steps/-', value: { requiredUserIds: [userId] } },
      { op: 'add', path: '/trigger/amountAtLeast', value: { currency: 'EUR', value: 10_000 } },
    ])
    expectStatus(patched, 200)
    expect(patched.json()).toMatchObject({
      name: 'Renamed',
      version: 2,
      trigger: { currency: 'EUR', amountAtLeast: { value: 10_000, stringValue: '100.00' } },
      steps: [{ requiredRoleIds: [approverRoleId] }, { requiredUserIds: [userId] }],
    })
    expectError(await patch(t, url, created.etag, [{ op: 'replace', path: '/name', value: 'x' }]), 412, 'precondition_failed')
    expectError(await patch(t, url, 'version:2', [{ op: 'replace', path: '/trigger/currency', value: 'SEK' }]), 400, 'invalid_request', 'trigger.amountAtLeast.currency')
    expectError(await patch(t, url, 'version:2', [{ op: 'replace', path: '/steps/0/requiredRoleIds', value: [] }]), 400, 'invalid_request', 'steps.0')
    expectError(await patch(t, url, 'version:2', [{ op: 'replace', path: '/id', value: MISSING_ID }]), 400, 'invalid_patch')
    expectError(await patch(t, url, 'version:2', [{ op: 'remove', path: '/steps/0/nothing' }]), 400, 'invalid_patch')
    expectError(await t.request({ method: 'PATCH', url, body: [{ op: 'replace', path: '/name', value: 'x' }] }), 428, 'precondition_required')
    expect((await t.request({ method: 'GET', url })).json()).toMatchObject({ name: 'Renamed', version: 2 })
  })

  it('deletes a chain softly: 410 afterwards, gone from the list', async () => {
    const created = await createChain({ name: 'Doomed' })
    const url = `${CHAINS}/${created.id}`
    expectError(await t.request({ method: 'DELETE', url }), 428, 'precondition_required')
    expectError(await remove(t, url, 'version:7'), 412, 'precondition_failed')
    expectStatus(await remove(t, url, created.etag), 204)
    expectError(await t.request({ method: 'GET', url }), 410, 'gone')
    expectError(await patch(t, url, 'version:2', [{ op: 'replace', path: '/name', value: 'x' }]), 410, 'gone')
    expectError(await remove(t, url, 'version:2'), 410, 'gone')
    const listed = (await t.request({ method: 'GET', url: CHAINS })).json<{ items: ChainJson[] }>().items
    expect(listed.map((item) => item.id)).not.toContain(created.id)
  })
})

describe('approval chains: authorization and tenancy', () => {
  it('lets a read-only key read chains but not change them (403)', async () => {
    const readOnly = await t.newKey('read-only')
    const created = await createChain()
    expectStatus(await t.request({ method: 'GET', url: `${CHAINS}/${created.id}`, as: readOnly }), 200)
    expectError(await t.request({ method: 'POST', url: CHAINS, body: chain(), as: readOnly }), 403, 'forbidden')
    expectError(await patch(t, `${CHAINS}/${created.id}`, created.etag, [{ op: 'replace', path: '/name', value: 'x' }], readOnly), 403, 'forbidden')
    expectError(await remove(t, `${CHAINS}/${created.id}`, created.etag, readOnly), 403, 'forbidden')
  })

  it("hides another organization's chains (404)", async () => {
    const other = await t.newOrganization()
    const created = await createChain()
    expectError(await t.request({ method: 'GET', url: `${CHAINS}/${created.id}`, as: other }), 404, 'not_found')
    expectError(await patch(t, `${CHAINS}/${created.id}`, created.etag, [{ op: 'replace', path: '/name', value: 'x' }], other), 404, 'not_found')
    expectError(await remove(t, `${CHAINS}/${created.id}`, created.etag, other), 404, 'not_found')
    expect((await t.request({ method: 'GET', url: CHAINS, as: other })).json().items).toEqual([])
  })
})
