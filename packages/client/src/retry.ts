import { IDEMPOTENCY_KEY_HEADER } from './idempotency-key.js'

/**
 * Retries with jittered exponential backoff, bounded in count and in total time (stripe-node's habit:
 * one place decides what is retried). Wraps `fetch`, beneath openapi-fetch's middleware, so a retry
 * resends the very request the middleware built, Idempotency-Key included.
 */

export type Fetch = (request: Request) => Promise<Response>

export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number
  /** No retry is started whose wait would end later than this after the first attempt began. Default 30 000 ms. */
  maxElapsedMilliseconds?: number
  /** The first backoff's ceiling; it doubles with each retry. Default 500 ms. */
  initialDelayMilliseconds?: number
  /** The largest backoff ceiling. Default 10 000 ms. */
  maxDelayMilliseconds?: number
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxRetries: 3,
  maxElapsedMilliseconds: 30_000,
  initialDelayMilliseconds: 500,
  maxDelayMilliseconds: 10_000,
}

/** Answers that say the request was not acted on: always safe to send again (spec: Errors, 425 "always safe to retry"). */
const NOT_ACTED_ON = new Set([425, 429, 503])
/** Answers after which the server may or may not have acted: retried only when a retry cannot act twice. */
const MAYBE_ACTED_ON = new Set([500, 502, 504])
/** RFC 9110 §9.2.2: methods whose repetition has the effect of one request. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])

/**
 * True when sending `request` again cannot act twice: an idempotent method, or an Idempotency-Key,
 * which makes Kassa replay the first answer (a 5xx stores nothing, so the retry runs afresh).
 */
function replaySafe(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method) || request.headers.has(IDEMPOTENCY_KEY_HEADER)
}

/** Whether this outcome of an attempt is worth another. A network error is a TypeError (Fetch standard); aborts are not retried. */
function retryable(request: Request, outcome: { response: Response } | { error: unknown }): boolean {
  if (request.signal.aborted) return false
  if ('error' in outcome) return outcome.error instanceof TypeError && replaySafe(request)
  const { status } = outcome.response
  return NOT_ACTED_ON.has(status) || (MAYBE_ACTED_ON.has(status) && replaySafe(request))
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); 0 when absent or unreadable. */
export function retryAfterMilliseconds(header: string | null, now = Date.now()): number {
  if (!header) return 0
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const date = Date.parse(header)
  return Number.isNaN(date) ? 0 : Math.max(0, date - now)
}

/** "Full jitter" backoff: uniform in [0, ceiling], the ceiling doubling per retry, so clients that failed together spread out. */
export function backoffMilliseconds(retry: number, options: Required<RetryOptions>, random = Math.random): number {
  const ceiling = Math.min(options.maxDelayMilliseconds, options.initialDelayMilliseconds * 2 ** retry)
  return Math.round(random() * ceiling)
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })
}

/**
 * `next` with retries on network errors, 425, 429 and 503 (and on 500, 502, 504 when replay-safe),
 * never on other statuses. A `Retry-After` is honoured: the wait is never shorter. The last outcome,
 * answer or error, is what the caller gets once the count or time bound is reached.
 */
export function withRetries(next: Fetch, options: RetryOptions = {}): Fetch {
  const settings = { ...DEFAULT_RETRY, ...options }
  return async (request) => {
    const started = Date.now()
    for (let retry = 0; ; retry += 1) {
      // Each attempt sends a copy: a body can be read once, and the original stays whole for the next.
      const outcome = await next(request.clone()).then(
        (response) => ({ response }),
        (error: unknown) => ({ error }),
      )
      const settle = () => ('response' in outcome ? outcome.response : Promise.reject(outcome.error))
      if (retry >= settings.maxRetries || !retryable(request, outcome)) return settle()
      const retryAfter = 'response' in outcome ? retryAfterMilliseconds(outcome.response.headers.get('Retry-After')) : 0
      const delay = Math.max(retryAfter, backoffMilliseconds(retry, settings))
      if (Date.now() + delay - started > settings.maxElapsedMilliseconds) return settle()
      // The abandoned answer's body is released so its connection can be reused.
      if ('response' in outcome) await outcome.response.body?.cancel()
      await sleep(delay, request.signal)
      // An abort during the wait ends the call with the abort's reason, sending nothing more.
      request.signal.throwIfAborted()
    }
  }
}
