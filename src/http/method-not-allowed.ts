import FindMyWay, { type HTTPMethod } from 'find-my-way'
import type { FastifyInstance } from 'fastify'
import { ApiError } from './errors.js'

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

function routeNotFound(method: string, path: string): ApiError {
  return new ApiError('route_not_found', `No endpoint ${method} ${path}`)
}

/** A trailing slash or an empty segment names no resource (spec: paths have no trailing slash). */
function hasEmptySegment(path: string): boolean {
  return path !== '/' && (path.endsWith('/') || path.includes('//'))
}

/**
 * Unknown paths answer 404; a known path with an unsupported method answers 405 with `Allow`.
 * Fastify's own router only knows "no route", so the registered routes are mirrored into a
 * second router that is asked which methods a path has.
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  const routes = FindMyWay({ ignoreTrailingSlash: false })
  // The router lets `/:id` match an empty segment, so `/counterparties/` would reach the item route.
  app.addHook('onRequest', (request, _reply, done) => {
    const path = request.url.split('?', 1)[0]!
    done(hasEmptySegment(path) ? routeNotFound(request.method, path) : undefined)
  })
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod)) routes.on(method as HTTPMethod, route.url, () => undefined)
    }
  })
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?', 1)[0]!
    const allowed = METHODS.filter((method) => routes.find(method, path) !== null)
    if (allowed.length === 0) throw routeNotFound(request.method, path)
    throw new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, undefined, {
      Allow: allowed.join(', '),
    })
  })
}
