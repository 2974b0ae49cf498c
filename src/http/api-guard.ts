import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Actor } from '../iam/actor.js'
import type { Permission } from '../iam/permissions.js'
import { ApiError } from './errors.js'
import type { SlidingWindowRateLimiter } from './rate-limiter.js'

export interface ApiGuardOptions {
  maintenance: boolean
  /** Basic credentials or a session cookie, resolved to the same Actor (iam/authenticate.ts). */
  authenticate: (request: FastifyRequest) => Actor | Promise<Actor>
  /** @throws ApiError forbidden (403) when the actor lacks the permission. */
  authorize: (actor: Actor, permission: Permission) => void
  rateLimiter: SlidingWindowRateLimiter
  /** The stricter limit on failed authentications (iam/failed-authentications.ts); none when absent. */
  failedAuthentications?: {
    /** @returns the 429 for a request whose address or key failed too often lately. */
    refusal(request: FastifyRequest): ApiError | undefined
    recordFailure(request: FastifyRequest): void
  }
}

export type PublicGuardOptions = Pick<ApiGuardOptions, 'maintenance' | 'rateLimiter'>

function maintenance(): ApiError {
  return new ApiError('maintenance', undefined, undefined, { 'Retry-After': '60' })
}

/** The per-minute rate limit of one caller (429, with RateLimit-* headers on every response). */
function limitRate(rateLimiter: SlidingWindowRateLimiter, reply: FastifyReply, caller: string): void {
  const decision = rateLimiter.take(caller)
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
  function admit(request: FastifyRequest, reply: FastifyReply, actor: Actor): void {
    request.actor = actor
    limitRate(options.rateLimiter, reply, actor.accessKeyId)
    const permission = request.routeOptions.config.permission
    if (permission) options.authorize(actor, permission)
  }

  /** An error of the guard, a refused authentication counted first. */
  function refused(request: FastifyRequest, error: unknown): Error {
    if (error instanceof ApiError && error.status === 401) options.failedAuthentications?.recordFailure(request)
    return error as Error
  }

  // Callback style: with the grant cached, the whole guard runs without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    let actor: Actor | Promise<Actor>
    try {
      if (options.maintenance) throw maintenance()
      const tooManyFailures = options.failedAuthentications?.refusal(request)
      if (tooManyFailures) throw tooManyFailures
      actor = options.authenticate(request)
      if (!(actor instanceof Promise)) {
        admit(request, reply, actor)
        return done()
      }
    } catch (error) {
      return done(refused(request, error))
    }
    actor.then((known) => admit(request, reply, known)).then(
      () => done(),
      (error: unknown) => done(refused(request, error)),
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
    limitRate(options.rateLimiter, reply, `address:${request.ip}`)
  })
}
