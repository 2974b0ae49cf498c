import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Actor } from '../iam/actor.js'
import { requirePermission } from '../iam/authorize.js'
import { ApiError } from './errors.js'
import type { SlidingWindowRateLimiter } from './rate-limiter.js'

export interface ApiGuardOptions {
  maintenance: boolean
  authenticate: (request: FastifyRequest) => Actor | Promise<Actor>
  rateLimiter: SlidingWindowRateLimiter
}

/**
 * What every API request passes before its handler, in order: maintenance (503), authentication
 * (401), the per-key rate limit (429, with RateLimit-* headers on every response), and the
 * route's permission (403).
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
    const decision = options.rateLimiter.take(actor.accessKeyId)
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
    const permission = request.routeOptions.config.permission
    if (permission) requirePermission(actor, permission)
  }

  // Callback style: with the grant cached, the whole guard runs without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    let actor: Actor | Promise<Actor>
    try {
      if (options.maintenance) throw new ApiError('maintenance', undefined, undefined, { 'Retry-After': '60' })
      actor = options.authenticate(request)
      if (!(actor instanceof Promise)) {
        admit(request, reply, actor)
        return done()
      }
    } catch (error) {
      return done(error as Error)
    }
    actor.then((known) => admit(request, reply, known)).then(
      () => done(),
      (error: unknown) => done(error as Error),
    )
  })
}
