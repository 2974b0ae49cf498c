import { describe, expect, it } from 'vitest'
import type { ApiError } from '../../http/errors.js'
import type { CreateApprovalChain } from './approval-chain.schemas.js'
import { chainDefinition, stepWithoutOwnApprover } from './approval-chain.validation.js'

const ROLE = '0190aaaa-0000-7000-8000-000000000001'
const chain = (overrides: Partial<CreateApprovalChain> = {}): CreateApprovalChain => ({
  name: 'c',
  trigger: {},
  steps: [{ requiredRoleIds: [ROLE] }],
  ...overrides,
})

function fieldOf(work: () => unknown): string | undefined {
  try {
    work()
  } catch (error) {
    return (error as ApiError).details?.[0]?.field
  }
  return undefined
}

describe('steps that name only users', () => {
  it('each get a user of their own when possible, re-assigning earlier steps if needed', () => {
    expect(stepWithoutOwnApprover([])).toBeUndefined()
    expect(stepWithoutOwnApprover([{ index: 0, users: ['a', 'b'] }, { index: 1, users: ['a'] }])).toBeUndefined()
    expect(stepWithoutOwnApprover([{ index: 0, users: ['a'] }, { index: 3, users: ['a'] }])).toBe(3)
    const three = ['a', 'b']
    expect(stepWithoutOwnApprover([0, 1, 2].map((index) => ({ index, users: three })))).toBe(2)
  })
})

describe('chain definitions', () => {
  it('stores amounts in minor units of the one chain currency, which the first amount sets', () => {
    const { definition } = chainDefinition(
      chain({ trigger: { amountAtLeast: { currency: 'JPY', value: 1000 } }, autoApproveBelow: { currency: 'JPY', stringValue: '5000' } }),
    )
    expect(definition).toEqual({
      trigger: { currency: 'JPY', amountAtLeast: 1000 },
      steps: [{ requiredRoleIds: [ROLE], requiredUserIds: [], allowCreatorApproval: false }],
      autoApprove: false,
      autoApproveBelow: 5000,
    })
  })

  it('lower-cases ids and reports where each was named', () => {
    const upper = ROLE.toUpperCase()
    const { definition, references } = chainDefinition(
      chain({ trigger: { creatorRoleIds: { notIn: [upper] } }, steps: [{ requiredRoleIds: [upper], requiredUserIds: ['0190AAAA-0000-7000-8000-00000000000F'] }] }),
    )
    expect(definition.trigger.creatorRoleIds).toEqual({ notIn: [ROLE] })
    expect(references.roles).toEqual([
      { field: 'trigger.creatorRoleIds.notIn.0', id: ROLE },
      { field: 'steps.0.requiredRoleIds.0', id: ROLE },
    ])
    expect(references.users).toEqual([{ field: 'steps.0.requiredUserIds.0', id: '0190aaaa-0000-7000-8000-00000000000f' }])
  })

  it('names the field at fault', () => {
    expect(fieldOf(() => chainDefinition(chain({ trigger: { currency: 'EUR', amountBelow: { currency: 'USD', value: 1 } } })))).toBe('trigger.amountBelow.currency')
    expect(fieldOf(() => chainDefinition(chain({ steps: [] })))).toBe('steps')
    expect(fieldOf(() => chainDefinition(chain({ autoApprove: true })))).toBe('steps')
    expect(fieldOf(() => chainDefinition(chain({ steps: [{ requiredRoleIds: [ROLE] }, {}] })))).toBe('steps.1')
    expect(fieldOf(() => chainDefinition(chain({ trigger: { creatorRoleIds: { in: [ROLE], notIn: [ROLE] } } })))).toBe('trigger.creatorRoleIds.notIn.0')
    expect(fieldOf(() => chainDefinition(chain({ autoApproveBelow: { currency: 'EUR', value: -5 } })))).toBe('autoApproveBelow.value')
    expect(fieldOf(() => chainDefinition(chain()))).toBeUndefined()
  })
})
