import { describe, expect, it } from 'vitest'
import { listViolationsOf, violationsOf } from './reference-validator.js'

/** The checker itself: it must fail a body the way a generated client would, and only then. */

const step = { id: 'step-1', status: 'PENDING', approvalChainId: 'chain-1', autoApproved: false }

describe('reference schema checks', () => {
  it('passes a conforming body, extra fields included (clients tolerate unknown fields)', () => {
    expect(violationsOf('PaymentApprovalStep', { ...step, requiredUserIds: ['u'], somethingNew: true })).toEqual([])
  })

  it('names a missing required field, a wrong type and an enum value outside the reference, with their paths', () => {
    const { approvalChainId: _, ...withoutChain } = step
    expect(violationsOf('PaymentApprovalStep', withoutChain)).toEqual(['/approvalChainId: required, missing'])
    expect(violationsOf('PaymentApprovalStep', { ...step, autoApproved: 'no' })).toEqual(['/autoApproved: must be boolean, got "no"'])
    expect(violationsOf('PaymentApprovalStep', { ...step, status: 'CANCELLED' })).toEqual([
      '/status: must be equal to one of the allowed values (PENDING, APPROVED, REJECTED), got "CANCELLED"',
    ])
  })

  it('follows nested schemas by name, and tells the two snapshots of a destination apart by type', () => {
    const external = { type: 'EXTERNAL_ACCOUNT', id: 'x'.repeat(36), organizationId: 'o', market: 'DE', identifiers: [] }
    expect(violationsOf('CreditTransferDestination', external)).toEqual([])
    expect(violationsOf('CreditTransferDestination', { ...external, type: 'ACCOUNT' })).toEqual(['/currency: required, missing', '/routing: required, missing'])
    expect(violationsOf('UserAuditInfo', { id: 'x'.repeat(36) })).toEqual(['/username: required, missing'])
  })

  it('checks a list page: the envelope, then every item at its index', () => {
    expect(listViolationsOf('PaymentApprovalStep', { items: [step, { ...step, id: 7 }], nextToken: '', limit: 100 })).toEqual([
      '/token: required, missing',
      '/items/1/id: must be string, got 7',
    ])
  })
})
