import type { FastifySchema } from 'fastify'
import { Type } from 'typebox'

/**
 * Request bodies a route may go without. @fastify/swagger marks every request body required, since Fastify
 * validates a body whenever a route has a schema for it; a route whose body schema is `Type.Optional(…)`
 * (`:reject`, `:cancel`, with the absentBodyIsEmpty hook) accepts none, and the document must say so, or
 * generated clients make every caller send `{}` (OpenAPI 3.1 §4.8.13: `required` defaults to false).
 */
const OPTIONAL_BODY = 'x-kassa-optional-body'

/** In the route transform: notes an optional body on the schema (an `x-` key @fastify/swagger copies to the operation). */
export function noteOptionalBody(schema: FastifySchema): FastifySchema {
  return schema.body !== undefined && Type.IsOptional(schema.body) ? Object.assign({}, schema, { [OPTIONAL_BODY]: true }) : schema
}

/** In the document transform: the noted operation's request body is not required, and the note goes. */
export function markOptionalBody(operation: { requestBody?: { required?: boolean } } & Record<string, unknown>): void {
  if (!(OPTIONAL_BODY in operation)) return
  delete operation[OPTIONAL_BODY]
  if (operation.requestBody) operation.requestBody.required = false
}
