import { createRequire } from 'node:module'
import { invalidField } from '../../http/errors.js'

/**
 * What a new password must be (NIST SP 800-63B §5.1.1.2): long enough, and not one that attackers try
 * first. No rules about character classes: length beats composition.
 */
export const PASSWORD_MIN_LENGTH = 12
/** scrypt takes any length, but a bound keeps one request from hashing megabytes. */
export const PASSWORD_MAX_LENGTH = 1024

/**
 * The 49,233 most common passwords of leaked sets (zxcvbn's list, shipped by the maintained
 * @zxcvbn-ts/language-common package as a plain JSON array), lower-cased, read on first use.
 */
let common: ReadonlySet<string> | undefined
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    (createRequire(import.meta.url)('@zxcvbn-ts/language-common/src/passwords.json') as string[]).map((password) => password.toLowerCase()),
  )
  return common
}

/** The password and the word it is built on: `Password2024!` is `password` with digits and a mark added. */
function variants(password: string): string[] {
  const lower = password.normalize('NFC').toLowerCase()
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '')
  return core === lower ? [lower] : [lower, core]
}

/**
 * @param email the user's email: a password containing its name part is refused too.
 * @throws ApiError invalid_request (400, naming `field`) when the password is too short, too long or too common.
 */
export function assertAcceptablePassword(password: string, email: string, field = 'password'): void {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH) throw invalidField(field, `must be at least ${PASSWORD_MIN_LENGTH} characters long`, 'too_short')
  if (length > PASSWORD_MAX_LENGTH) throw invalidField(field, `must be at most ${PASSWORD_MAX_LENGTH} characters long`, 'too_long')
  if (variants(password).some((variant) => commonPasswords().has(variant))) {
    throw invalidField(field, 'is one of the most common passwords, which attackers try first; choose another', 'too_common')
  }
  const name = email.split('@', 1)[0]!.toLowerCase()
  if (name.length >= 4 && password.toLowerCase().includes(name)) {
    throw invalidField(field, 'must not contain your email address', 'contains_email')
  }
  if (new Set(password).size < 4) throw invalidField(field, 'must not repeat the same few characters', 'too_simple')
}
