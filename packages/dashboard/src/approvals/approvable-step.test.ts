import { describe, expect, it } from 'vitest'
import type { ApprovalStep } from '../api/types'
import { approvableStep } from './approvable-step'

const me = { userId: 'u-me', roleId: 'r-approver' }
const chain = 'chain-1'

function step(overrides: Partial<ApprovalStep>): ApprovalStep {
  return { id: 's-1', approvalChainId: 'chain-0', status: 'PENDING', autoApproved: false, allowCreatorApproval: false, requiredRoleIds: [], requiredUserIds: [], ...overrides }
}

function payment(steps: ApprovalStep[], overrides: { status?: 'CREATED' | 'APPROVED'; creatorUserId?: string } = {}) {
  return { status: overrides.status ?? 'CREATED', creatorUserId: overrides.creatorUserId ?? 'u-creator', approvalSteps: steps } as const
}

describe('approvableStep: the step a person may approve now, by the API rule', () => {
  it('is a pending step that names their role or their user', () => {
    const byRole = step({ id: 's-role', requiredRoleIds: ['r-approver'] })
    const byName = step({ id: 's-name', requiredUserIds: ['u-me'] })
    expect(approvableStep(payment([byRole]), me)?.id).toBe('s-role')
    expect(approvableStep(payment([byName]), me)?.id).toBe('s-name')
  })

  it('is none when no step names them, or the steps are decided, or the payment no longer awaits approval', () => {
    expect(approvableStep(payment([step({ requiredRoleIds: ['r-other'], requiredUserIds: ['u-other'] })]), me)).toBeUndefined()
    expect(approvableStep(payment([step({ requiredRoleIds: ['r-approver'], status: 'APPROVED' })]), me)).toBeUndefined()
    expect(approvableStep(payment([step({ requiredRoleIds: ['r-approver'] })], { status: 'APPROVED' }), me)).toBeUndefined()
  })

  it('skips a step they are named on but, as the creator, may not approve (four eyes)', () => {
    const mine = payment([step({ requiredRoleIds: ['r-approver'] })], { creatorUserId: 'u-me' })
    expect(approvableStep(mine, me)).toBeUndefined()
    const allowed = payment([step({ requiredRoleIds: ['r-approver'], allowCreatorApproval: true })], { creatorUserId: 'u-me' })
    expect(approvableStep(allowed, me)?.id).toBe('s-1')
  })

  it('skips a second step of a chain whose other step they approved, but not a step of another chain', () => {
    const approved = step({ id: 's-a', approvalChainId: chain, status: 'APPROVED', approver: { id: 'u-me', username: 'me@example.com', name: 'Me' }, requiredRoleIds: ['r-approver'] })
    const sameChain = step({ id: 's-b', approvalChainId: chain, requiredRoleIds: ['r-approver'] })
    const otherChain = step({ id: 's-c', approvalChainId: 'chain-2', requiredRoleIds: ['r-approver'] })
    expect(approvableStep(payment([approved, sameChain]), me)).toBeUndefined()
    expect(approvableStep(payment([approved, sameChain, otherChain]), me)?.id).toBe('s-c')
  })

  it('takes the first approvable step in chain order', () => {
    const first = step({ id: 's-first', requiredUserIds: ['u-other'] })
    const second = step({ id: 's-second', requiredRoleIds: ['r-approver'] })
    const third = step({ id: 's-third', requiredUserIds: ['u-me'] })
    expect(approvableStep(payment([first, second, third]), me)?.id).toBe('s-second')
  })
})
