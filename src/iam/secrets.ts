import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

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

/** Constant-time comparison of a presented secret with a stored digest. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = createHash('sha256').update(secret, 'utf8').digest()
  const stored = Buffer.from(storedHash, 'hex')
  return stored.length === presented.length && timingSafeEqual(presented, stored)
}
