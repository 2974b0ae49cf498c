import type { FastifyRequest } from 'fastify'
import { ApiError } from '../http/errors.js'
import type { RateDecision } from '../http/rate-limiter.js'
import type { RateLimitStore } from '../http/rate-limits/index.js'
import { decodeBasic } from './authenticate.js'

/**
 * Issue 14: failed authentications are limited apart from, and far below, the request rate — per client address
 * and per access key named in Basic credentials — so that guessing secrets is slow whichever of the two an
 * attacker varies. Past the limit every request from that address or for that key is refused with 429 before its
 * credentials are checked, right ones included, until the oldest failure is a minute old: a key under attack
 * pauses rather than be guessed. Kept in the shared store (http/rate-limits/), each failure written before its 401
 * is answered, so the limit holds across processes.
 */
export function createFailedAuthentications(store: RateLimitStore, perMinute: number) {
  const byAddress = store.limiter('failed-authentications:address', perMinute, { immediate: true })
  const byAccessKey = store.limiter('failed-authentications:access-key', perMinute, { immediate: true })

  /** The access key of Basic credentials, the one a guesser would vary the secret of; undefined for other schemes. */
  function accessKeyOf(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization
    if (header === undefined || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined
    return decodeBasic(header.slice(6))?.accessKey
  }

  function refusalOf(decisions: RateDecision[]): ApiError | undefined {
    const blocked = decisions.filter((decision) => !decision.allowed)
    if (blocked.length === 0) return undefined
    const retryAfter = Math.max(...blocked.map((decision) => decision.resetSeconds))
    return new ApiError('too_many_failed_authentications', undefined, undefined, { 'Retry-After': String(retryAfter) })
  }

  return {
    /**
     * The 429 for a request from an address, or for a key, that failed too often in the past minute; undefined when
     * neither did. Without a promise when the store answers at once (the database store's counts are in memory).
     */
    refusal(request: FastifyRequest): ApiError | undefined | Promise<ApiError | undefined> {
      const accessKey = accessKeyOf(request)
      const decisions = [byAddress.peek(request.ip), ...(accessKey === undefined ? [] : [byAccessKey.peek(accessKey)])]
      return decisions.some((decision) => decision instanceof Promise) ? Promise.all(decisions).then(refusalOf) : refusalOf(decisions as RateDecision[])
    },

    /** Counts a request whose credentials were refused (401) against its address and its key; settles once stored. */
    async recordFailure(request: FastifyRequest): Promise<void> {
      const accessKey = accessKeyOf(request)
      await Promise.all([byAddress.take(request.ip), ...(accessKey === undefined ? [] : [byAccessKey.take(accessKey)])])
    },
  }
}
