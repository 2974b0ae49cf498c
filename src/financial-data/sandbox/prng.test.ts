import { describe, expect, it } from 'vitest'
import { seededRandom } from './prng.js'

describe('seededRandom', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const draw = (seed: string) => {
      const random = seededRandom(seed)
      return Array.from({ length: 20 }, () => random.next())
    }
    expect(draw('a')).toEqual(draw('a'))
    expect(draw('a')).not.toEqual(draw('b'))
  })

  it('stays in range and covers it', () => {
    const random = seededRandom('range')
    const seen = new Set<number>()
    for (let i = 0; i < 2_000; i++) {
      const value = random.int(3, 7)
      expect(value).toBeGreaterThanOrEqual(3)
      expect(value).toBeLessThanOrEqual(7)
      seen.add(value)
      const unit = random.next()
      expect(unit).toBeGreaterThanOrEqual(0)
      expect(unit).toBeLessThan(1)
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7])
    expect(random.digits(12)).toMatch(/^\d{12}$/)
  })

  it('forks streams that do not depend on draws from the parent', () => {
    const a = seededRandom('parent')
    const b = seededRandom('parent')
    b.next()
    b.next()
    expect(a.fork('x').next()).toBe(b.fork('x').next())
    expect(a.fork('x').next()).not.toBe(a.fork('y').next())
  })
})
