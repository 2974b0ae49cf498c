import type { FastifyRequest } from 'fastify'
import { ApiError } from '../http/errors.js'
import { SlidingWindowRateLimiter } from '../http/rate-limiter.js'
import { decodeBasic } from './authenticate.js'

/**
 * Issue 14: failed authentications are limited apart from, and far below, the request rate — per client address
 * and per access key named in Basic credentials — so that guessing secrets is slow whichever of the two an
 * attacker varies. Past the limit every request from that address or for that key is refused with 429 before its
 * credentials are checked, right ones included, until the oldest failure is a minute old: a key under attack
 * pauses rather than be guessed. State is per process, like the request rate limit (README: Limits).
 */
export function createFailedAuthentications(perMinute: number) {
  const byAddress = new SlidingWindowRateLimiter(perMinute)
  const byAccessKey = new SlidingWindowRateLimiter(perMinute)

  /** The access key of Basic credentials, the one a guesser would vary the secret of; undefined for other schemes. */
  function accessKeyOf(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization
    if (header === undefined || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined
    return decodeBasic(header.slice(6))?.accessKey
  }

  return {
    /** The 429 for a request from an address, or for a key, that failed too often in the past minute; undefined when neither did. */
    refusal(request: FastifyRequest): ApiError | undefined {
      const accessKey = accessKeyOf(request)
      const decisions = [byAddress.peek(request.ip), ...(accessKey === undefined ? [] : [byAccessKey.peek(accessKey)])]
      const blocked = decisions.filter((decision) => !decision.allowed)
      if (blocked.length === 0) return undefined
      const retryAfter = Math.max(...blocked.map((decision) => decision.resetSeconds))
      return new ApiError('too_many_failed_authentications', undefined, undefined, { 'Retry-After': String(retryAfter) })
    },

    /** Counts a request whose credentials were refused (401) against its address and its key. */
    recordFailure(request: FastifyRequest): void {
      byAddress.take(request.ip)
      const accessKey = accessKeyOf(request)
      if (accessKey !== undefined) byAccessKey.take(accessKey)
    },
  }
}
