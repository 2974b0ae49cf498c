import type { preValidationHookHandler } from 'fastify'

/**
 * For routes whose body is optional (`:reject`): an absent body is validated as an empty object, so a
 * client may send none, an empty one with a JSON Content-Type, or `{}`. JSON Schema cannot say "an
 * object or nothing", so the route's body schema stays the object and this hook fills the gap.
 */
export const absentBodyIsEmpty: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined) request.body = {}
  done()
}
