import { describe, expect, it } from 'vitest'
import type { Actor } from '../../iam/actor.js'
import { checkApprover, ownerApprovalChainId, plannedBatchSteps, plannedSteps, type ApprovalChain, type PaymentFacts, type StepState } from './approval-rules.js'

const payment: PaymentFacts = { kind: 'CREDIT_TRANSFER', accountId: 'acc-1', currency: 'EUR', amount: 50_000, creatorRoleId: 'role-clerk' }
const step = (overrides: Partial<StepState> = {}): StepState => ({
  id: 's1',
  approvalChainId: 'chain-1',
  requiredRoleIds: ['role-approver'],
  requiredUserIds: [],
  allowCreatorApproval: false,
  status: 'PENDING',
  approverUserId: null,
  ...overrides,
})
const actor = (overrides: Partial<Actor> = {}): Actor => ({
  organizationId: 'org',
  userId: 'user-a',
  accessKeyId: 'key',
  roleId: 'role-approver',
  roleName: 'approver',
  owner: false,
  permissions: new Set(),
  ...overrides,
})

describe('planned approval steps', () => {
  it('falls back to the Owner when no chain exists or none matches', () => {
    const owner = [{ approvalChainId: null, requiredRoleIds: ['role-owner'], requiredUserIds: [], allowCreatorApproval: true, autoApproved: false }]
    expect(plannedSteps([], payment, 'role-owner')).toEqual(owner)
    const sekOnly: ApprovalChain = { id: 'c', trigger: { currency: 'SEK' }, steps: [], autoApprove: true }
    expect(plannedSteps([sekOnly], payment, 'role-owner')).toEqual(owner)
  })

  it("names the Owner's fallback by one id per organization: stable, a UUID, another organization's differs", () => {
    const first = ownerApprovalChainId('0197a3b0-0000-7000-8000-000000000001')
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(ownerApprovalChainId('0197a3b0-0000-7000-8000-000000000001')).toBe(first)
    expect(ownerApprovalChainId('0197a3b0-0000-7000-8000-000000000002')).not.toBe(first)
  })

  it('auto-approves below a threshold and requires steps above it', () => {
    const chain: ApprovalChain = {
      id: 'c1',
      trigger: { currency: 'EUR' },
      steps: [{ requiredRoleIds: ['r1'], requiredUserIds: [], allowCreatorApproval: false }],
      autoApprove: false,
      autoApproveBelow: 100_000,
    }
    expect(plannedSteps([chain], payment, 'o')).toMatchObject([{ approvalChainId: 'c1', autoApproved: true }])
    expect(plannedSteps([chain], { ...payment, amount: 100_000 }, 'o')).toMatchObject([{ requiredRoleIds: ['r1'], autoApproved: false }])
  })

  it('adds the steps of every matching chain, and matches every condition', () => {
    const a: ApprovalChain = { id: 'a', trigger: { paymentTypes: ['CREDIT_TRANSFER'] }, steps: [{ requiredRoleIds: ['r1'], requiredUserIds: [], allowCreatorApproval: false }, { requiredRoleIds: ['r2'], requiredUserIds: [], allowCreatorApproval: false }], autoApprove: false }
    const b: ApprovalChain = { id: 'b', trigger: { accountIds: { in: ['acc-1'] }, creatorRoleIds: { notIn: ['role-cfo'] } }, steps: [{ requiredRoleIds: [], requiredUserIds: ['u9'], allowCreatorApproval: true }], autoApprove: false }
    const c: ApprovalChain = { id: 'c', trigger: { paymentTypes: ['DIRECT_DEBIT'] }, steps: [], autoApprove: true }
    const d: ApprovalChain = { id: 'd', trigger: { currency: 'EUR', amountAtLeast: 60_000 }, steps: [], autoApprove: true }
    expect(plannedSteps([a, b, c, d], payment, 'o').map((s) => [s.approvalChainId, s.requiredRoleIds, s.requiredUserIds])).toEqual([
      ['a', ['r1'], []],
      ['a', ['r2'], []],
      ['b', [], ['u9']],
    ])
  })
})

describe('who may approve a step', () => {
  it('lets a holder of the required role approve', () => {
    expect(() => checkApprover(step(), [step()], actor(), 'creator')).not.toThrow()
  })
  it('lets a named user approve', () => {
    const named = step({ requiredRoleIds: [], requiredUserIds: ['user-a'] })
    expect(() => checkApprover(named, [named], actor({ roleId: 'other' }), 'creator')).not.toThrow()
  })
  it('refuses a user without the role (403)', () => {
    expect(() => checkApprover(step(), [step()], actor({ roleId: 'other' }), 'creator')).toThrow(/didn't match/)
  })
  it('refuses the creator unless the step allows it', () => {
    expect(() => checkApprover(step(), [step()], actor(), 'user-a')).toThrow(/creator/)
    const allowed = step({ allowCreatorApproval: true })
    expect(() => checkApprover(allowed, [allowed], actor(), 'user-a')).not.toThrow()
  })
  it('refuses a second step of one chain by the same user, but not of another chain', () => {
    const first = step({ id: 's1', status: 'APPROVED', approverUserId: 'user-a' })
    const second = step({ id: 's2' })
    expect(() => checkApprover(second, [first, second], actor(), 'creator')).toThrow(/two steps of the same approval chain/)
    const otherChain = step({ id: 's3', approvalChainId: 'chain-2' })
    expect(() => checkApprover(otherChain, [first, otherChain], actor(), 'creator')).not.toThrow()
  })
  it('refuses a decided step (409)', () => {
    expect(() => checkApprover(step({ status: 'APPROVED' }), [], actor(), 'c')).toThrow(/already APPROVED/)
  })
})

describe('planned approval steps of a batch approved as one (treatment BATCH)', () => {
  const large: ApprovalChain = { id: 'large', trigger: { currency: 'EUR', amountAtLeast: 100_000 }, steps: [{ requiredRoleIds: ['role-cfo'], requiredUserIds: [], allowCreatorApproval: false }], autoApprove: false }
  const small: ApprovalChain = { id: 'small', trigger: { currency: 'EUR', amountBelow: 10_000 }, steps: [{ requiredRoleIds: ['role-clerk'], requiredUserIds: [], allowCreatorApproval: false }], autoApprove: false }
  const total = { ...payment, amount: 150_000 }

  it('applies the chains the total matches, though no payment alone would', () => {
    expect(plannedBatchSteps([large], total, [50_000, 50_000, 50_000], 'role-owner').map((planned) => planned.approvalChainId)).toEqual(['large'])
  })

  it('applies the chains a payment alone would match, though the total does not', () => {
    expect(plannedBatchSteps([large, small], total, [145_000, 5_000], 'role-owner').map((planned) => planned.approvalChainId)).toEqual(['large', 'small'])
  })

  it('approves automatically only as the total allows, and falls back to the Owner when no chain applies', () => {
    const below: ApprovalChain = { id: 'below', trigger: { currency: 'EUR' }, steps: [{ requiredRoleIds: ['role-clerk'], requiredUserIds: [], allowCreatorApproval: false }], autoApprove: false, autoApproveBelow: 100_000 }
    expect(plannedBatchSteps([below], total, [60_000, 90_000], 'role-owner')[0]).toMatchObject({ autoApproved: false, requiredRoleIds: ['role-clerk'] })
    expect(plannedBatchSteps([below], { ...payment, amount: 90_000 }, [30_000, 60_000], 'role-owner')[0]).toMatchObject({ autoApproved: true })
    expect(plannedBatchSteps([], total, [150_000], 'role-owner')).toEqual([
      { approvalChainId: null, requiredRoleIds: ['role-owner'], requiredUserIds: [], allowCreatorApproval: true, autoApproved: false },
    ])
  })
})
