import type { FastifyInstance } from 'fastify'

/**
 * JSON bodies, also as `application/json-patch+json` (RFC 6902) for PATCH. An empty body parses as
 * no body, so bodiless POSTs such as `:approve` or `/v1/idempotency-test` work with clients that
 * always send a JSON Content-Type; routes that need a body say so through their schema.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(
    ['application/json', 'application/json-patch+json'],
    { parseAs: 'string' },
    (request, body, done) => {
      if (body === '') return done(null, undefined)
      parseJson(request, body as string, done)
    },
  )
}
