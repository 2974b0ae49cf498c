import { describe, expect, it } from 'vitest'
import { excerptMayBeCut } from './response-excerpt'

describe('excerptMayBeCut: whether an attempt kept all of the answer', () => {
  it('knows an excerpt under 1,024 bytes of UTF-8 is the whole answer', () => {
    expect(excerptMayBeCut('thanks')).toBe(false)
    expect(excerptMayBeCut('x'.repeat(1_023))).toBe(false)
    // 341 three-byte characters are 1,023 bytes, though only 341 characters.
    expect(excerptMayBeCut('€'.repeat(341))).toBe(false)
  })

  it('counts bytes, not characters: 1,024 bytes or more may have been cut', () => {
    expect(excerptMayBeCut('x'.repeat(1_024))).toBe(true)
    expect(excerptMayBeCut(`${'x'.repeat(1_022)}\uFFFD`)).toBe(true)
    expect(excerptMayBeCut('€'.repeat(342))).toBe(true)
  })
})
