import type { ApiError } from '../../http/errors.js'

/**
 * What an import holds in memory, counted as it grows: the tree of the element being read, the plan of
 * what will be booked (planned-entries.ts counts its bytes exactly) and the index of entry references.
 * Estimates are V8's sizes on 64-bit Node without pointer compression (its default): an object's header
 * and an 8-byte slot per property, a string's header and a byte a character (two when it holds any
 * character beyond U+00FF).
 */

const HEADER_BYTES = 32
const SLOT_BYTES = 8
const STRING_HEADER_BYTES = 24
const TWO_BYTE = /[^\u0000-\u00ff]/

export function stringBytes(value: string): number {
  return STRING_HEADER_BYTES + (TWO_BYTE.test(value) ? 2 : 1) * value.length
}

/** An element of a tree being built, with `characters` of text (counted as two-byte: it is not yet known). */
export function treeBytes(characters: number): number {
  return HEADER_BYTES + 2 * SLOT_BYTES + STRING_HEADER_BYTES + 2 * characters
}

export class MemoryBudget {
  private used = 0

  constructor(
    readonly limit: number,
    private readonly exceeded: () => ApiError,
  ) {}

  /** @throws the `exceeded` error (a 413) when `bytes` more would pass the limit. */
  take(bytes: number): void {
    this.used += bytes
    if (this.used > this.limit) throw this.exceeded()
  }

  give(bytes: number): void {
    this.used -= bytes
  }
}
