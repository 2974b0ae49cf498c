import type { FastifyInstance } from 'fastify'

/**
 * JSON bodies, also as `application/json-patch+json` (RFC 6902) for PATCH, and nothing else: the
 * spec's bodies are JSON, so any other Content-Type (Fastify's built-in text/plain included) is a 415.
 * An empty body parses as no body, so bodiless POSTs such as `:approve` or `/v1/idempotency-test`
 * work with clients that always send a JSON Content-Type; routes that need a body say so through their schema.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    ['application/json', 'application/json-patch+json'],
    { parseAs: 'string' },
    (request, body, done) => {
      if (body === '') return done(null, undefined)
      parseJson(request, body as string, done)
    },
  )
}
