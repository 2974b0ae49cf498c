import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorObject } from 'ajv'
import {
  ApiError,
  ERRORS,
  MAX_ERROR_DETAILS,
  MAX_ERROR_TEXT,
  RETRY_AFTER_SECONDS,
  type ErrorCode,
  type ErrorDetail,
  type ErrorEnvelope,
} from './errors.js'
import { closeAfterUnreadBody } from './request-timeouts.js'
import { sendStoredAnswer, StoredAnswer } from './stored-answer.js'

const CODE_FOR_FRAMEWORK_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  404: 'route_not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'headers_too_large',
}

function joinField(path: string, name: string): string {
  return path ? `${path}.${name}` : name
}

/**
 * AJV error → `{code, field, error}`; fields are dot paths with list indices (reference §6).
 * `enumsListed` maps an enum's schema path to the first field that listed its values: a list of
 * 100,000 bad values names the allowed ones once, not once per item.
 */
function detailOf(error: ErrorObject, context: string | undefined, enumsListed: Map<string, string>): ErrorDetail {
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
    case 'enum': {
      const field = path || context || ''
      const listedAt = enumsListed.get(error.schemaPath)
      if (listedAt !== undefined) return { code: 'invalid_value', field, error: `must be one of the values listed for ${listedAt}` }
      enumsListed.set(error.schemaPath, field)
      return { code: 'invalid_value', field, error: `must be one of [${(error.params.allowedValues as unknown[]).join(', ')}]` }
    }
    default:
      return { code: 'invalid_value', field: path || context || '', error: error.message ?? 'is invalid' }
  }
}

/**
 * AJV's errors as the details of a 400, one per field. Also how a credit transfer batch reports a record that fails
 * its schema (credit-transfer-batches/), so a record's errors read as the same request's 400 would.
 */
export function validationDetails(errors: readonly ErrorObject[], context?: string): ErrorDetail[] {
  const seen = new Set<string>()
  const enumsListed = new Map<string, string>()
  const details: ErrorDetail[] = []
  for (const ajvError of errors) {
    const detail = detailOf(ajvError, context, enumsListed)
    if (seen.has(detail.field)) continue
    seen.add(detail.field)
    details.push(detail)
  }
  return details
}

function validationError(error: FastifyError): ApiError {
  const context = error.validationContext
  const details = validationDetails((error.validation ?? []) as ErrorObject[], context)
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

/** Texts can echo the client's input (a field name, an If-Match value): each is cut to MAX_ERROR_TEXT. */
function bounded(text: string): string {
  return text.length <= MAX_ERROR_TEXT ? text : `${text.slice(0, MAX_ERROR_TEXT - 1)}…`
}

export function errorBody(error: ApiError, requestId: string): ErrorEnvelope {
  const details = error.details ?? []
  const shown = details.slice(0, MAX_ERROR_DETAILS).map(({ code, field, error }) => ({
    code: bounded(code),
    field: bounded(field),
    error: bounded(error),
  }))
  return {
    status: error.status,
    code: error.code,
    message: bounded(error.message),
    requestId,
    ...(shown.length > 0 ? { details: shown } : {}),
    ...(details.length > shown.length ? { detailsOmitted: details.length - shown.length } : {}),
  }
}

/**
 * The envelope is serialized as it is, not through the route's response schemas: a status a route does
 * not document would otherwise go through its `default` schema, fail to fit, and become a bare 500. A
 * 503 without a Retry-After of its own gets RETRY_AFTER_SECONDS.
 */
export function sendError(error: ApiError, request: FastifyRequest, reply: FastifyReply, fields?: Record<string, string>): FastifyReply {
  if (error.headers) reply.headers(error.headers)
  if (error.status === 503 && !reply.hasHeader('retry-after')) reply.header('Retry-After', String(RETRY_AFTER_SECONDS))
  closeAfterUnreadBody(request, reply)
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send({ ...errorBody(error, request.id), ...fields })
}

/**
 * How a scope words its errors when a protocol of its own prescribes them (the OAuth2 token endpoint,
 * RFC 6749 §5.2): the error restated, and fields its body carries beside the envelope's.
 */
export type ErrorDialect = (error: ApiError) => { error: ApiError; fields?: Record<string, string> }

/** The error handler of the app, or of a scope (with its dialect): anything thrown is answered in the envelope. */
export function registerErrorHandler(app: FastifyInstance, dialect?: ErrorDialect): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof StoredAnswer) return sendStoredAnswer(reply, error)
    const apiError = toApiError(error)
    // A 503 (maintenance, shutdown) is the server working as configured, not a failure worth a stack trace.
    if (apiError.code === 'internal_error') request.log.error({ err: error }, 'request failed')
    else if (apiError.status >= 500) request.log.info({ code: apiError.code }, 'request refused')
    if (!dialect) return sendError(apiError, request, reply)
    const spoken = dialect(apiError)
    return sendError(spoken.error, request, reply, spoken.fields)
  })
}
