import FindMyWay, { type HTTPMethod } from 'find-my-way'
import type { FastifyInstance } from 'fastify'
import { ApiError } from './errors.js'

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/**
 * Unknown paths answer 404; a known path with an unsupported method answers 405 with `Allow`.
 * Fastify's own router only knows "no route", so the registered routes are mirrored into a
 * second router that is asked which methods a path has.
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  const routes = FindMyWay({ ignoreTrailingSlash: false })
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod)) routes.on(method as HTTPMethod, route.url, () => undefined)
    }
  })
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?', 1)[0]!
    const allowed = METHODS.filter((method) => routes.find(method, path) !== null)
    if (allowed.length === 0) throw new ApiError('route_not_found', `No endpoint ${request.method} ${path}`)
    throw new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, undefined, {
      Allow: allowed.join(', '),
    })
  })
}
