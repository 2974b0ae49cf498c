import { describe, expect, it } from 'vitest'
import type { Entity } from './entity.schemas.js'
import { isEquivalent, makesCycle } from './entity.rules.js'

/** group → nordics → sweden; group → germany; solo alone. */
const TREE = new Map<string, string | null>([
  ['group', null],
  ['nordics', 'group'],
  ['sweden', 'nordics'],
  ['germany', 'group'],
  ['solo', null],
])

describe('makesCycle', () => {
  it('refuses an entity as its own parent', () => {
    expect(makesCycle(TREE, 'solo', 'solo')).toBe(true)
  })

  it('refuses a parent below the entity, however deep', () => {
    expect(makesCycle(TREE, 'group', 'nordics')).toBe(true)
    expect(makesCycle(TREE, 'group', 'sweden')).toBe(true)
    expect(makesCycle(TREE, 'nordics', 'sweden')).toBe(true)
  })

  it('accepts a parent elsewhere in the tree, above, beside, or in another tree', () => {
    expect(makesCycle(TREE, 'sweden', 'group')).toBe(false)
    expect(makesCycle(TREE, 'sweden', 'germany')).toBe(false)
    expect(makesCycle(TREE, 'group', 'solo')).toBe(false)
    expect(makesCycle(TREE, 'solo', 'sweden')).toBe(false)
  })

  it('ends on a loop among other entities instead of walking it for ever', () => {
    const looped = new Map<string, string | null>([['a', 'b'], ['b', 'a'], ['c', null]])
    expect(makesCycle(looped, 'c', 'a')).toBe(false)
  })
})

describe('isEquivalent', () => {
  const entity: Entity = {
    id: '01900000-0000-7000-8000-000000000001',
    organizationId: '01900000-0000-7000-8000-000000000002',
    legalName: 'Acme AB',
    parentId: '01900000-0000-7000-8000-00000000000a',
    address: { country: 'SE', city: 'Malmö' },
    metadata: { a: '1' },
    version: 3,
    etag: 'version:3',
    created: '2026-11-24T10:00:00.000Z',
    updated: '2026-11-24T11:00:00.000Z',
  }
  const same = { legalName: 'Acme AB', parentId: '01900000-0000-7000-8000-00000000000A', address: { city: 'Malmö', country: 'SE' }, metadata: { a: '1' } }

  it('holds when every field given is equal and every field left out is absent, whatever the case of ids or order of keys', () => {
    expect(isEquivalent(entity, same)).toBe(true)
    expect(isEquivalent({ ...entity, metadata: {} }, { ...same, metadata: undefined })).toBe(true)
  })

  it('fails on any difference, a field more or a field less', () => {
    expect(isEquivalent(entity, { ...same, legalName: 'Acme Ab' })).toBe(false)
    expect(isEquivalent(entity, { ...same, parentId: undefined })).toBe(false)
    expect(isEquivalent(entity, { ...same, externalId: 'acme' })).toBe(false)
    expect(isEquivalent({ ...entity, externalId: 'acme' }, same)).toBe(false)
    expect(isEquivalent(entity, { ...same, address: { country: 'SE' } })).toBe(false)
    expect(isEquivalent(entity, { ...same, metadata: {} })).toBe(false)
    expect(isEquivalent(entity, { ...same, nationalIdentifier: { type: 'COMPANY', market: 'SE', number: '1' } })).toBe(false)
  })
})
