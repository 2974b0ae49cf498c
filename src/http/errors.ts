import { Type, type Static } from 'typebox'

/**
 * The error catalogue: every error a client can see has a stable machine `code`,
 * an HTTP status and a public message. Driver and SQL errors never reach a client;
 * they become `internal_error`.
 */
export const ERRORS = {
  invalid_request: { status: 400, message: 'The request is invalid' },
  invalid_token: { status: 400, message: 'The pagination token is invalid' },
  invalid_patch: { status: 400, message: 'The JSON Patch is invalid' },
  // The OAuth2 token endpoint's own codes (RFC 6749 §5.2), described by its responses alone (route-schemas.ts).
  unsupported_grant_type: { status: 400, message: 'The grant_type is not one this server issues tokens for', oauth2: true },
  invalid_scope: { status: 400, message: 'The scope is not one this server grants', oauth2: true },
  invalid_client: { status: 401, message: 'Client authentication failed', oauth2: true },
  unauthorized: { status: 401, message: 'Authentication is missing or wrong' },
  forbidden: { status: 403, message: 'The access key lacks permission for this resource or action' },
  not_found: { status: 404, message: 'Resource not found' },
  route_not_found: { status: 404, message: 'No such endpoint' },
  method_not_allowed: { status: 405, message: 'Method not allowed' },
  request_timeout: { status: 408, message: 'The request was not received in time' },
  expectation_failed: { status: 417, message: 'The Expect header names an expectation the server does not meet' },
  conflict: { status: 409, message: 'The request conflicts with the current state of the resource' },
  external_id_taken: { status: 409, message: 'The externalId is already used by another resource of this type' },
  gone: { status: 410, message: 'The resource existed but was deleted' },
  precondition_failed: { status: 412, message: 'If-Match does not match the current etag of the resource' },
  too_many_keys: { status: 412, message: 'The webhook already has the most signing keys it may have (2); delete one first' },
  key_required: { status: 412, message: 'A webhook keeps at least one signing key; add another before deleting this one' },
  payload_too_large: { status: 413, message: 'The request body is too large' },
  unsupported_media_type: { status: 415, message: 'Unsupported Content-Type' },
  idempotency_key_reused: {
    status: 422,
    message: 'The Idempotency-Key was already used with a different request',
  },
  directory_unusable: {
    status: 422,
    message: 'A directory the request names cannot be created, read or written by the server',
  },
  unsupported_message: {
    status: 422,
    message: 'The file is not a message Kassa reads',
  },
  payment_mismatch: {
    status: 422,
    message: 'The payment does not match the transaction it would be attached to',
  },
  idempotency_key_in_use: {
    status: 425,
    message: 'A request with the same Idempotency-Key is still in progress; retry later',
  },
  precondition_required: { status: 428, message: 'The If-Match header is required on updates' },
  rate_limited: { status: 429, message: 'Too many requests in the past minute' },
  too_many_failed_authentications: {
    status: 429,
    message: 'Too many failed authentications in the past minute from this address or for this access key: wait before trying again',
  },
  headers_too_large: { status: 431, message: 'The request headers are too large' },
  internal_error: { status: 500, message: 'Unexpected server-side problem' },
  maintenance: { status: 503, message: 'Temporarily offline for maintenance' },
  unavailable: { status: 503, message: 'Service unavailable' },
} as const satisfies Record<string, { status: number; message: string; oauth2?: true }>

export type ErrorCode = keyof typeof ERRORS

export interface ErrorDetail {
  code: string
  field: string
  error: string
}

export class ApiError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? ERRORS[code].message)
    this.status = ERRORS[code].status
  }
}

/** A 400 naming the field at fault, as validation errors do. */
export function invalidField(field: string, error: string, code = 'invalid_value'): ApiError {
  return new ApiError('invalid_request', `Invalid value for ${field}: ${error}`, [{ code, field, error }])
}

/**
 * Error bodies are bounded whatever the request (issue 9: 100,000 bad items once made a 92 MB error):
 * at most this many `details`, the rest counted in `detailsOmitted`, and every text cut to MAX_ERROR_TEXT.
 */
export const MAX_ERROR_DETAILS = 20
export const MAX_ERROR_TEXT = 1_000

/**
 * Seconds a 503 asks the client to wait when the code that refused knows no better (issue 9: every 503
 * carries Retry-After, so the client's retries back off; the SDK honours it).
 */
export const RETRY_AFTER_SECONDS = 5

/** The error body (reference §6, plus `code` and `requestId`). */
export const ErrorEnvelope = Type.Object(
  {
    status: Type.Integer(),
    code: Type.String({ description: 'Stable machine-readable error code' }),
    message: Type.String(),
    requestId: Type.String(),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          code: Type.String(),
          field: Type.String({ description: 'Dot path of the field, list indices included' }),
          error: Type.String(),
        }),
        { maxItems: MAX_ERROR_DETAILS },
      ),
    ),
    detailsOmitted: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `How many more problems were found than the ${MAX_ERROR_DETAILS} that \`details\` lists`,
      }),
    ),
  },
  { $id: 'ErrorEnvelope', description: 'Every error response has this shape.' },
)
export type ErrorEnvelope = Static<typeof ErrorEnvelope>
