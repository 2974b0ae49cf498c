import { describe, expect, it } from 'vitest'
import { rowIdempotencyKey } from './credit-transfer-import.js'

describe('rowIdempotencyKey', () => {
  it('names the file content and the row, within the 255 visible characters a key may have', () => {
    const sha256 = 'a'.repeat(64)
    expect(rowIdempotencyKey(sha256, 12)).toBe(`kassa-csv-${sha256}-12`)
    expect(rowIdempotencyKey(sha256, 12)).not.toBe(rowIdempotencyKey(sha256, 13))
    expect(rowIdempotencyKey(sha256, 1_000_000).length).toBeLessThanOrEqual(255)
  })
})

