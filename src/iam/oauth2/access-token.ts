import { randomBytes } from 'node:crypto'
import { hashSecret } from '../secrets.js'

/**
 * The form of the bearer tokens POST /iam/v2beta/oauth2/token issues: 32 random bytes behind a prefix that
 * names them (so a secret scanner, or a person reading a log, knows a leaked one for what it is). They are
 * opaque to clients (RFC 6749 §1.4) and stored only as their SHA-256 digest, as access key secrets and
 * session tokens are: a copy of the database holds no token anyone could use, and no signing key that
 * could make one.
 */
export const ACCESS_TOKEN_PREFIX = 'kassa_at_'
const ACCESS_TOKEN = /^kassa_at_[A-Za-z0-9_-]{43}$/

export function newAccessToken(): string {
  return `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
}

/** Whether the text could be a token this server issued: anything else is refused without a query. */
export function isAccessTokenShaped(text: string): boolean {
  return ACCESS_TOKEN.test(text)
}

export const accessTokenDigest = hashSecret
