import { describe, expect, it } from 'vitest'
import { permissionGroups, permissionLabel } from './permissions'

describe('permissions as the role form shows them', () => {
  it('groups resource:action scopes by resource, in the order given', () => {
    expect(permissionGroups(['credit_transfers:read', 'accounts:read', 'credit_transfers:approve', 'account_balances:read'])).toEqual([
      {
        resource: 'credit_transfers',
        label: 'Credit transfers',
        permissions: [
          { permission: 'credit_transfers:read', action: 'Read' },
          { permission: 'credit_transfers:approve', action: 'Approve' },
        ],
      },
      { resource: 'accounts', label: 'Accounts', permissions: [{ permission: 'accounts:read', action: 'Read' }] },
      { resource: 'account_balances', label: 'Account balances', permissions: [{ permission: 'account_balances:read', action: 'Read' }] },
    ])
  })

  it('names each permission in words, the action first', () => {
    expect(permissionLabel('credit_transfers:approve')).toBe('Approve credit transfers')
    expect(permissionLabel('sandbox:update')).toBe('Update sandbox')
  })
})
