/**
 * Webhook signatures (reference §5.3): HMAC-SHA256 over `rawBody + "." + timestamp` with each active
 * signing key (base64), lowercase hex, comma-separated in `Webhook-Signature`; the timestamp is the exact
 * `Webhook-Request-Timestamp` header, RFC 3339 with up to nanosecond digits.
 *
 * Web Crypto rather than node:crypto, so the same module runs in Node 20 and in browsers; Web Crypto is
 * asynchronous, hence the Promise. (Browsers offer it on https pages and localhost only.)
 */

export interface VerifyWebhookSignatureInput {
  /** The request body exactly as received: the raw bytes or text, not re-serialized JSON. */
  body: string | Uint8Array
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
const SIGNATURE = /^[0-9a-f]{64}$/

/** Milliseconds since the epoch of an RFC 3339 timestamp with up to nanosecond digits; NaN if it is not one. */
function parseTimestamp(timestamp: string): number {
  const match = RFC3339.exec(timestamp)
  if (!match) return Number.NaN
  const [, seconds, fraction = '', zone] = match
  return Date.parse(`${seconds}${zone}`) + Number(`0.${fraction || '0'}`) * 1000
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2)
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16)
  return bytes
}

function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))
}

/** What was signed: the body's bytes, a dot, the timestamp. */
function signedBytes(body: string | Uint8Array, timestamp: string): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder()
  const head = typeof body === 'string' ? encoder.encode(body) : body
  const tail = encoder.encode(`.${timestamp}`)
  const bytes = new Uint8Array(head.length + tail.length)
  bytes.set(head)
  bytes.set(tail, head.length)
  return bytes
}

/**
 * Resolves to true when `signatureHeader` holds a valid signature of `body` and `timestamp` by any of
 * `keys`, and the timestamp is within `toleranceSeconds` of now. The comparison is Web Crypto's
 * `verify`, which is constant-time. A key that is not base64 throws: that is a configuration error,
 * not a forged request.
 */
export async function verifyWebhookSignature(input: VerifyWebhookSignatureInput): Promise<boolean> {
  const { body, timestamp, signatureHeader, keys, toleranceSeconds = 300, now = new Date() } = input
  if (!timestamp || !signatureHeader || keys.length === 0) return false
  const sent = parseTimestamp(timestamp)
  if (!Number.isFinite(sent) || Math.abs(now.getTime() - sent) > toleranceSeconds * 1000) return false
  const candidates = signatureHeader
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => SIGNATURE.test(part))
    .map(hexBytes)
  if (candidates.length === 0) return false
  const data = signedBytes(body, timestamp)
  for (const key of keys) {
    const hmacKey = await crypto.subtle.importKey('raw', base64Bytes(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
    for (const candidate of candidates) {
      if (await crypto.subtle.verify('HMAC', hmacKey, candidate, data)) return true
    }
  }
  return false
}
