import { describe, expect, it } from 'vitest'
import { matchingFilter } from './outbox.js'
import type { WebhookFilter } from './webhook.schemas.js'

const filter: WebhookFilter[] = [
  { resource: 'counterparties', apiVersion: 2 },
  { resource: 'credit_transfers', apiVersion: 2, events: ['FULLY_APPROVED', 'DELETED'] },
]

describe('webhook filters', () => {
  it('take every event of a resource listed without events', () => {
    expect(matchingFilter(filter, 'counterparties', { type: 'UPDATED', name: 'UPDATED' })).toBe(filter[0])
    expect(matchingFilter(filter, 'counterparties', { type: 'DELETED', name: 'DELETED' })).toBe(filter[0])
  })

  it('match listed events by name or by type', () => {
    expect(matchingFilter(filter, 'credit_transfers', { type: 'UPDATED', name: 'FULLY_APPROVED' })).toBe(filter[1])
    expect(matchingFilter(filter, 'credit_transfers', { type: 'DELETED', name: 'CANCELLED' })).toBe(filter[1])
    expect(matchingFilter(filter, 'credit_transfers', { type: 'CREATED', name: 'CREATED' })).toBeUndefined()
    expect(matchingFilter(filter, 'credit_transfers', { type: 'UPDATED', name: 'SENT_TO_BANK' })).toBeUndefined()
  })

  it('take nothing of resources not listed', () => {
    expect(matchingFilter(filter, 'external_accounts', { type: 'CREATED', name: 'CREATED' })).toBeUndefined()
    expect(matchingFilter([], 'counterparties', { type: 'CREATED', name: 'CREATED' })).toBeUndefined()
  })
})
