import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Access keys are public identifiers; secrets are 256 random bits, shown once and stored as a
 * SHA-256 digest. A slow password hash buys nothing for secrets this long (no dictionary to try)
 * and would cost tens of milliseconds on every request.
 */
export function newAccessKey(): string {
  return `KA${randomBytes(15).toString('base64url').replace(/[-_]/g, 'x').toUpperCase()}`
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url')
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}

/** A stored digest as bytes, decoded once per cached grant rather than on every request. */
export function digestBytes(storedHash: string): Buffer {
  return Buffer.from(storedHash, 'hex')
}

/** Constant-time comparison of a presented secret with a stored digest (see digestBytes). */
export function secretMatches(secret: Buffer, storedDigest: Buffer): boolean {
  // One-shot crypto.hash: a third of createHash's cost, on every authenticated request.
  const presented = hash('sha256', secret, 'buffer')
  return storedDigest.length === presented.length && timingSafeEqual(presented, storedDigest)
}

/** Constant-time comparison of a presented secret with one already matched against its digest. */
export function sameSecret(presented: Buffer, confirmed: Buffer): boolean {
  return presented.length === confirmed.length && timingSafeEqual(presented, confirmed)
}
