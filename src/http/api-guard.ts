import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Actor } from '../iam/actor.js'
import type { Permission } from '../iam/permissions.js'
import { ApiError } from './errors.js'
import type { RateLimiter } from './rate-limiter.js'

export interface ApiGuardOptions {
  maintenance: boolean
  /** Basic credentials or a session cookie, resolved to the same Actor (iam/authenticate.ts). */
  authenticate: (request: FastifyRequest) => Actor | Promise<Actor>
  /** @throws ApiError forbidden (403) when the actor lacks the permission. */
  authorize: (actor: Actor, permission: Permission) => void
  /** The per-minute limit per credential and, on public routes, per address; shared across processes (rate-limits/). */
  rateLimiter: RateLimiter
  /** The stricter limit on failed authentications (iam/failed-authentications.ts); none when absent. */
  failedAuthentications?: {
    /** @returns the 429 for a request whose address or key failed too often lately. */
    refusal(request: FastifyRequest): ApiError | undefined | Promise<ApiError | undefined>
    /** Settles once the failure is counted where every process sees it. */
    recordFailure(request: FastifyRequest): Promise<void>
  }
}

export type PublicGuardOptions = Pick<ApiGuardOptions, 'maintenance' | 'rateLimiter'>

function maintenance(): ApiError {
  return new ApiError('maintenance', undefined, undefined, { 'Retry-After': '60' })
}

/**
 * `next` applied to `value`, at once when `value` is no promise: with the grant cached and the limits counted in
 * memory, the whole guard runs without a promise.
 */
function andThen<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}

/** The per-minute rate limit of one caller (429, with RateLimit-* headers on every response). */
function limitRate(rateLimiter: RateLimiter, reply: FastifyReply, caller: string): void | Promise<void> {
  return andThen(rateLimiter.take(caller), (decision) => {
    reply.headers({
      'RateLimit-Limit': decision.limit,
      'RateLimit-Remaining': decision.remaining,
      'RateLimit-Reset': decision.resetSeconds,
    })
    if (!decision.allowed) {
      throw new ApiError('rate_limited', `More than ${decision.limit} requests in the past minute`, undefined, {
        'Retry-After': String(decision.resetSeconds),
      })
    }
  })
}

/**
 * What every API request passes before its handler, in order: maintenance (503), the limit on failed
 * authentications of its address and key (429), authentication (401, counted toward that limit), the
 * per-credential rate limit (429), and the route's permission (403).
 */
export function registerApiGuard(app: FastifyInstance, options: ApiGuardOptions): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.permission === undefined && !route.url.startsWith('*')) {
      throw new Error(`API route ${route.method} ${route.url} must declare config.permission (null when none is needed)`)
    }
  })

  /** Rate limit and permission, once the actor is known. */
  function admit(request: FastifyRequest, reply: FastifyReply, actor: Actor): void | Promise<void> {
    request.actor = actor
    return andThen(limitRate(options.rateLimiter, reply, actor.accessKeyId), () => {
      const permission = request.routeOptions.config.permission
      if (permission) options.authorize(actor, permission)
    })
  }

  function guard(request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    if (options.maintenance) throw maintenance()
    return andThen(options.failedAuthentications?.refusal(request), (tooManyFailures) => {
      if (tooManyFailures) throw tooManyFailures
      return andThen(options.authenticate(request), (actor) => admit(request, reply, actor))
    })
  }

  /** Ends the request with the guard's error, a refused authentication counted first (before the 401 leaves). */
  function refuse(request: FastifyRequest, error: unknown, done: (error: Error) => void): void {
    const failures = error instanceof ApiError && error.status === 401 ? options.failedAuthentications : undefined
    if (!failures) return done(error as Error)
    // A store that cannot count it has logged so (rate-limits/outage.ts); the 401 is still the answer.
    failures.recordFailure(request).then(
      () => done(error as Error),
      () => done(error as Error),
    )
  }

  // Callback style: with the grant cached and the limits in memory, the whole guard runs without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    let outcome: void | Promise<void>
    try {
      outcome = guard(request, reply)
    } catch (error) {
      return refuse(request, error, done)
    }
    if (!(outcome instanceof Promise)) return done()
    outcome.then(
      () => done(),
      (error: unknown) => refuse(request, error, done),
    )
  })
}

/**
 * The guard of the few routes that take no credentials because they make them (sign-in): maintenance
 * (503) and the rate limit per client address (429). They declare no permission, so the OpenAPI document
 * shows them without security.
 */
export function registerPublicGuard(app: FastifyInstance, options: PublicGuardOptions): void {
  app.addHook('onRequest', async (request, reply) => {
    if (options.maintenance) throw maintenance()
    await limitRate(options.rateLimiter, reply, `address:${request.ip}`)
  })
}
