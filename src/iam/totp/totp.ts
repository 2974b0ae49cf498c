import { Secret, TOTP } from 'otpauth'

/**
 * Time-based one-time passwords (RFC 6238) as every authenticator app reads them: HMAC-SHA-1, 6 digits,
 * 30-second steps, a 160-bit secret (RFC 4226 §4 recommends 160). A code is accepted one step either side
 * of now (clock drift, typing time), and never twice: the step it was accepted for is remembered.
 */
const ISSUER = 'Kassa'
const WINDOW = 1

function totpOf(secret: string, label = 'user'): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) })
}

/** A new secret, base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

/** The otpauth:// URI an authenticator app scans (Key Uri Format), labelled with the user's email. */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString()
}

/**
 * The time step `code` is valid for at `now`, if it is valid and later than `lastUsedStep`.
 * @returns the step to remember, or undefined for a wrong or replayed code.
 */
export function acceptedStep(secret: string, code: string, lastUsedStep: number, now: Date): number | undefined {
  const totp = totpOf(secret)
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: WINDOW })
  if (delta === null) return undefined
  const step = totp.counter({ timestamp: now.getTime() }) + delta
  return step > lastUsedStep ? step : undefined
}

/** The code for `now` (the CLI and tests play the authenticator app with it). */
export function totpCode(secret: string, now: Date): string {
  return totpOf(secret).generate({ timestamp: now.getTime() })
}
