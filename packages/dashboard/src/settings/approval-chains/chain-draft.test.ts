import { describe, expect, it } from 'vitest'
import type { ApprovalChain } from '../types'
import { chainPatch, draftOf, emptyDraft, emptyStep, readDraft, type ChainDraft } from './chain-draft'

const ROLE = '0197a3b0-2c4d-7e5f-9a6b-7c8d9e0f1a2b'
const USER = '0197a3b2-3d4e-7f60-8b7c-9d0e1f2a3b4c'
const ACCOUNT = '0197a3b4-0000-7000-8000-000000000001'
const EN = { decimal: '.', group: ',' }
const DE = { decimal: ',', group: '.' }

function chain(overrides: Partial<ApprovalChain> = {}): ApprovalChain {
  return {
    id: 'c-1',
    organizationId: 'o-1',
    name: 'Large payments',
    trigger: { paymentTypes: ['CREDIT_TRANSFER'], currency: 'EUR', amountAtLeast: { currency: 'EUR', value: 4_000_000, stringValue: '40000.00' } },
    steps: [
      { requiredRoleIds: [ROLE], requiredUserIds: [], allowCreatorApproval: false },
      { requiredRoleIds: [], requiredUserIds: [USER], allowCreatorApproval: true },
    ],
    autoApprove: false,
    version: 3,
    etag: 'version:3',
    created: '2025-07-01T10:00:00Z',
    updated: '2025-07-01T10:00:00Z',
    ...overrides,
  }
}

function bodyOf(draft: ChainDraft, marks = EN) {
  const read = readDraft(draft, marks)
  if (!('body' in read)) throw new Error(JSON.stringify(read.problems))
  return read.body
}

describe('readDraft: the form as the API takes it', () => {
  it('leaves out every condition not given: a chain for every payment, with its step', () => {
    const draft = { ...emptyDraft(), name: ' All payments ', steps: [{ ...emptyStep(), roleIds: [ROLE] }] }
    expect(bodyOf(draft)).toEqual({ name: 'All payments', trigger: {}, steps: [{ requiredRoleIds: [ROLE], allowCreatorApproval: false }] })
  })

  it('reads amounts as the reader writes them into exact minor units, and accounts and creator roles as "in"', () => {
    const draft: ChainDraft = {
      ...emptyDraft(),
      name: 'Big EUR',
      paymentTypes: ['CREDIT_TRANSFER'],
      currency: 'eur',
      amounts: { amountAtLeast: '10.000', amountBelow: '50.000,29', autoApproveBelow: '' },
      accountIds: [ACCOUNT],
      creatorRoleIds: [ROLE],
      steps: [{ ...emptyStep(), userIds: [USER], allowCreatorApproval: true }],
    }
    expect(bodyOf(draft, DE)).toEqual({
      name: 'Big EUR',
      trigger: {
        paymentTypes: ['CREDIT_TRANSFER'],
        currency: 'EUR',
        amountAtLeast: { currency: 'EUR', value: 10_000_00 },
        amountBelow: { currency: 'EUR', value: 50_000_29 },
        accountIds: { in: [ACCOUNT] },
        creatorRoleIds: { in: [ROLE] },
      },
      steps: [{ requiredUserIds: [USER], allowCreatorApproval: true }],
    })
  })

  it('says what is wrong with an amount, and asks for the currency of amounts', () => {
    const amounts = { amountAtLeast: '10,000.5', amountBelow: '12.345', autoApproveBelow: 'lots' }
    expect(readDraft({ ...emptyDraft(), amounts }, EN)).toEqual({ problems: { currency: expect.stringMatching(/^Give the currency/) } })
    expect(readDraft({ ...emptyDraft(), currency: 'EUR', amounts }, EN)).toEqual({
      problems: { amountBelow: 'EUR amounts have at most 2 decimals.', autoApproveBelow: 'Write the amount as digits, like 1,250.50.' },
    })
  })

  it('sends no steps when matching payments are approved automatically', () => {
    expect(bodyOf({ ...emptyDraft(), name: 'STP', autoApprove: true })).toMatchObject({ steps: [], autoApprove: true })
  })

  it('keeps the "notIn" conditions the form does not edit', () => {
    const read = chain({ trigger: { accountIds: { notIn: [ACCOUNT] }, creatorRoleIds: { in: [ROLE], notIn: [USER] } } })
    expect(bodyOf({ ...draftOf(read, EN), creatorRoleIds: [] }).trigger).toEqual({ accountIds: { notIn: [ACCOUNT] }, creatorRoleIds: { notIn: [USER] } })
  })
})

describe('chainPatch: what changed, as a JSON Patch', () => {
  it('is empty for the chain as read, in any locale', () => {
    expect(draftOf(chain(), DE).amounts.amountAtLeast).toBe('40000,00')
    expect(chainPatch(chain(), bodyOf(draftOf(chain(), DE), DE))).toEqual([])
  })

  it('replaces the name, trigger and steps that changed, and nothing else', () => {
    const draft = draftOf(chain(), EN)
    expect(chainPatch(chain(), bodyOf({ ...draft, amounts: { ...draft.amounts, amountAtLeast: '50,000' } }))).toEqual([
      { op: 'replace', path: '/trigger', value: { paymentTypes: ['CREDIT_TRANSFER'], currency: 'EUR', amountAtLeast: { currency: 'EUR', value: 50_000_00 } } },
    ])
    expect(chainPatch(chain(), bodyOf({ ...draft, name: 'Large', steps: draft.steps.slice(0, 1) }))).toEqual([
      { op: 'replace', path: '/name', value: 'Large' },
      { op: 'replace', path: '/steps', value: [{ requiredRoleIds: [ROLE], allowCreatorApproval: false }] },
    ])
  })

  it('adds and removes autoApproveBelow', () => {
    const draft = draftOf(chain(), EN)
    const added = chainPatch(chain(), bodyOf({ ...draft, amounts: { ...draft.amounts, autoApproveBelow: '45000' } }))
    expect(added).toEqual([{ op: 'add', path: '/autoApproveBelow', value: { currency: 'EUR', value: 45_000_00 } }])
    const withBelow = chain({ autoApproveBelow: { currency: 'EUR', value: 4_500_000, stringValue: '45000.00' } })
    const cleared = draftOf(withBelow, EN)
    expect(chainPatch(withBelow, bodyOf({ ...cleared, amounts: { ...cleared.amounts, autoApproveBelow: '' } }))).toEqual([{ op: 'remove', path: '/autoApproveBelow' }])
  })
})
