import { describe, expect, it } from 'vitest'
import { makesCycle } from './entity.rules.js'

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
