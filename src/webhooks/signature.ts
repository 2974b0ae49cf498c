import { createHmac, randomBytes } from 'node:crypto'

/**
 * Webhook signatures (reference §5.3): HMAC-SHA256 over `rawBody + "." + timestamp` with each
 * active signing key (base64, 32 bytes), lowercase hex, comma-separated in `Webhook-Signature`.
 * The timestamp is the exact `Webhook-Request-Timestamp` header: RFC 3339 with nanoseconds.
 * Receivers verify with `verifyWebhookSignature` of `@kassa/client`, which this package re-exports.
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
