import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Webhook signatures (reference §5.3): HMAC-SHA256 over `rawBody + "." + timestamp` with each
 * active signing key (base64, 32 bytes), lowercase hex, comma-separated in `Webhook-Signature`.
 * The timestamp is the exact `Webhook-Request-Timestamp` header: RFC 3339 with nanoseconds.
 */

export const SIGNATURE_HEADER = 'Webhook-Signature'
export const TIMESTAMP_HEADER = 'Webhook-Request-Timestamp'

const SIGNING_KEY_BYTES = 32

/** A new signing key: 32 random bytes, base64. */
export function newSigningKey(): string {
  return randomBytes(SIGNING_KEY_BYTES).toString('base64')
}

/** `2022-10-11T10:13:14.000000015Z`: milliseconds from the clock, the sub-millisecond digits from the monotonic one. */
export function webhookTimestamp(now: Date = new Date(), subMillisecondNanos = Number(process.hrtime.bigint() % 1_000_000n)): string {
  const nanos = String(subMillisecondNanos).padStart(6, '0')
  return now.toISOString().replace(/Z$/, `${nanos}Z`)
}

/** One key's signature of `body` at `timestamp`, lowercase hex. */
export function signWebhookPayload(body: string | Buffer, timestamp: string, signingKey: string): string {
  return createHmac('sha256', Buffer.from(signingKey, 'base64'))
    .update(body)
    .update('.')
    .update(timestamp)
    .digest('hex')
}

/** The `Webhook-Signature` header: one signature per active key, comma-separated. */
export function signatureHeader(body: string | Buffer, timestamp: string, signingKeys: readonly string[]): string {
  return signingKeys.map((key) => signWebhookPayload(body, timestamp, key)).join(',')
}

export interface VerifyWebhookSignatureInput {
  /** The request body exactly as received: the raw bytes, not re-serialized JSON. */
  body: string | Buffer
  /** The `Webhook-Request-Timestamp` header. */
  timestamp: string | undefined
  /** The `Webhook-Signature` header. */
  signatureHeader: string | undefined
  /** The webhook's signing keys (base64); during a rotation, both. */
  keys: readonly string[]
  /** Requests whose timestamp is further than this from now are refused (replay protection). Default 300. */
  toleranceSeconds?: number
  /** The receiver's clock; for tests. */
  now?: Date
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/

/** Milliseconds since the epoch of an RFC 3339 timestamp with up to nanosecond digits; NaN if it is not one. */
function parseTimestamp(timestamp: string): number {
  const match = RFC3339.exec(timestamp)
  if (!match) return Number.NaN
  const [, seconds, fraction = '', zone] = match
  return Date.parse(`${seconds}${zone}`) + Number(`0.${fraction || '0'}`) * 1000
}

/**
 * True when `signatureHeader` holds a valid signature of `body` and `timestamp` by any of `keys`,
 * and the timestamp is within `toleranceSeconds` of now. Comparisons are constant-time.
 */
export function verifyWebhookSignature(input: VerifyWebhookSignatureInput): boolean {
  const { body, timestamp, signatureHeader: header, keys, toleranceSeconds = 300, now = new Date() } = input
  if (!timestamp || !header || keys.length === 0) return false
  const sent = parseTimestamp(timestamp)
  if (!Number.isFinite(sent) || Math.abs(now.getTime() - sent) > toleranceSeconds * 1000) return false
  const candidates = header
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => /^[0-9a-f]{64}$/.test(part))
    .map((part) => Buffer.from(part, 'hex'))
  return keys.some((key) => {
    const expected = Buffer.from(signWebhookPayload(body, timestamp, key), 'hex')
    return candidates.some((candidate) => timingSafeEqual(candidate, expected))
  })
}
