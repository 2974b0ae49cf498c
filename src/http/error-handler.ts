import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorObject } from 'ajv'
import { ApiError, ERRORS, type ErrorCode, type ErrorDetail, type ErrorEnvelope } from './errors.js'

const CODE_FOR_FRAMEWORK_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  404: 'route_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
}

function joinField(path: string, name: string): string {
  return path ? `${path}.${name}` : name
}

/** AJV error → `{code, field, error}`; fields are dot paths with list indices (reference §6). */
function detailOf(error: ErrorObject, context: string | undefined): ErrorDetail {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
  switch (error.keyword) {
    case 'required':
      return { code: 'required', field: joinField(path, String(error.params.missingProperty)), error: 'is required' }
    case 'additionalProperties':
      return {
        code: 'unknown_field',
        field: joinField(path, String(error.params.additionalProperty)),
        error: 'is not a known field',
      }
    case 'enum':
      return {
        code: 'invalid_value',
        field: path || context || '',
        error: `must be one of [${(error.params.allowedValues as unknown[]).join(', ')}]`,
      }
    default:
      return { code: 'invalid_value', field: path || context || '', error: error.message ?? 'is invalid' }
  }
}

function validationError(error: FastifyError): ApiError {
  const context = error.validationContext
  const seen = new Set<string>()
  const details: ErrorDetail[] = []
  for (const ajvError of error.validation ?? []) {
    const detail = detailOf(ajvError as ErrorObject, context)
    if (seen.has(detail.field)) continue
    seen.add(detail.field)
    details.push(detail)
  }
  const where = context === 'body' ? 'request body' : context === 'querystring' ? 'query parameters' : `${context}`
  return new ApiError('invalid_request', `The ${where} failed validation`, details)
}

/** Turns anything thrown into an ApiError; unknown errors become a 500 that leaks nothing. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const fastifyError = error as FastifyError
  if (fastifyError.validation) return validationError(fastifyError)
  const status = fastifyError.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = CODE_FOR_FRAMEWORK_STATUS[status] ?? 'invalid_request'
    // Framework 4xx messages describe the client's mistake (bad JSON, wrong content type) and are safe to show.
    return new ApiError(code, fastifyError.message || ERRORS[code].message)
  }
  return new ApiError('internal_error')
}

export function errorBody(error: ApiError, request: FastifyRequest): ErrorEnvelope {
  return {
    status: error.status,
    code: error.code,
    message: error.message,
    requestId: request.id,
    ...(error.details && error.details.length > 0 ? { details: error.details } : {}),
  }
}

/**
 * The envelope is serialized as it is, not through the route's response schemas: a status a route does
 * not document would otherwise go through its `default` schema, fail to fit, and become a bare 500.
 */
export function sendError(error: ApiError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.headers) reply.headers(error.headers)
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(errorBody(error, request))
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error)
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed')
    return sendError(apiError, request, reply)
  })
}
