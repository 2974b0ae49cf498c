import type { FastifyInstance } from 'fastify'
import { ApiError } from './errors.js'
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js'

/** The largest JSON body (statement files, XML, have a limit of their own). */
export const JSON_BODY_LIMIT = 1024 * 1024

/**
 * JSON bodies, also as `application/json-patch+json` (RFC 6902) for PATCH, and nothing else: the
 * spec's bodies are JSON, so any other Content-Type (Fastify's built-in text/plain included) is a 415, and so is
 * JSON Patch's type on any other method (reference-api.md: updates are PATCH with JSON Patch, creates and commands
 * POST application/json): a route whose body schemas are per content type validates no body of a type it does not list.
 * An empty body parses as no body, so bodiless POSTs such as `:approve` or `/v1/idempotency-test`
 * work with clients that always send a JSON Content-Type; routes that need a body say so through their schema.
 * Nesting deeper than MAX_JSON_DEPTH is refused before the parse, so nothing after it walks such a value.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(
    ['application/json', 'application/json-patch+json'],
    { parseAs: 'string' },
    (request, body, done) => {
      const text = body as string
      if (request.method !== 'PATCH' && request.headers['content-type']?.toLowerCase().startsWith('application/json-patch+json')) {
        return done(new ApiError('unsupported_media_type', `application/json-patch+json is for PATCH; send a ${request.method} body as application/json`), undefined)
      }
      if (text === '') return done(null, undefined)
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        const error = `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`
        return done(new ApiError('invalid_request', `The request body ${error}`, [{ code: 'too_deep', field: '', error }]), undefined)
      }
      parseJson(request, text, done)
    },
  )
}
