import { createHash } from 'node:crypto'

/**
 * A small seeded pseudo-random generator (sfc32, 128-bit state): the same seed gives the same
 * sequence on every platform, so sandbox data derived from an organization id is reproducible.
 * Not for anything secret.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number
  /** True with probability `p`. */
  chance(p: number): boolean
  pick<T>(items: readonly T[]): T
  /** `count` decimal digits. */
  digits(count: number): string
  /** A generator of its own, derived from this one and `label`: adding draws here does not shift it. */
  fork(label: string): Random
}

function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
}

/** A generator seeded from any text (an organization id, plus a purpose). */
export function seededRandom(seed: string): Random {
  const hash = createHash('sha256').update(seed).digest()
  const next = sfc32(hash.readUInt32LE(0), hash.readUInt32LE(4), hash.readUInt32LE(8), hash.readUInt32LE(12))
  for (let i = 0; i < 12; i++) next() // mix the state before the first draw
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('Cannot pick from an empty list')
      return items[Math.floor(next() * items.length)]!
    },
    digits: (count) => Array.from({ length: count }, () => String(Math.floor(next() * 10))).join(''),
    fork: (label) => seededRandom(`${seed}/${label}`),
  }
  return random
}
