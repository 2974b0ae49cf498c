import { describe, expect, it } from 'vitest'
import { nestsDeeperThan } from './json-depth.js'

describe('nestsDeeperThan', () => {
  it('counts objects and arrays alike', () => {
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false)
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true)
  })

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false)
    expect(nestsDeeperThan('{"a":"\\"[[[[","b":"\\\\"}', 1)).toBe(false)
    expect(nestsDeeperThan('["\\\\",[[]]]', 2)).toBe(true)
  })

  it('counts depth, not the number of brackets', () => {
    expect(nestsDeeperThan(`[${'[],'.repeat(10_000)}[]]`, 2)).toBe(false)
  })

  it('finds a very deep value without recursion', () => {
    expect(nestsDeeperThan('['.repeat(1_000_000), 32)).toBe(true)
  })
})
