import type { Middleware } from 'openapi-fetch'

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

/** spec: Idempotency rules 1–2 — the key makes POST and PATCH safe to retry; GET and DELETE ignore it. */
const KEYED_METHODS = new Set(['POST', 'PATCH'])

/**
 * A random UUID (version 4). Built from `crypto.getRandomValues`, not `crypto.randomUUID`, because
 * browsers offer the latter only on https pages and the dashboard may be served over plain http.
 */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * openapi-fetch middleware: every POST and PATCH carries an Idempotency-Key unless the caller sent one.
 * It is set once, before the request reaches the retrying fetch, so every retry of the call sends the
 * same key and a create whose answer was lost is replayed, never done twice.
 */
export const addIdempotencyKey: Middleware = {
  onRequest({ request }) {
    if (KEYED_METHODS.has(request.method) && !request.headers.has(IDEMPOTENCY_KEY_HEADER)) {
      request.headers.set(IDEMPOTENCY_KEY_HEADER, newIdempotencyKey())
    }
    return undefined
  },
}
