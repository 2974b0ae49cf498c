import type { ErrorDialect } from '../../http/error-handler.js'
import { ApiError, type ErrorCode } from '../../http/errors.js'
import { OAUTH2_ERROR_CODES } from './oauth2.schemas.js'

const OAUTH2_CODES = new Set<ErrorCode>(OAUTH2_ERROR_CODES)

/** RFC 6749 §5.2: error_description is printable ASCII without `"` and `\`. */
function rfcText(text: string): string {
  return text.replace(/"/g, "'").replace(/\\/g, '/').replace(/[^\x20-\x7e]/g, '?')
}

/**
 * The token endpoint's errors as RFC 6749 §5.2 words them, in Kassa's envelope: every refusal of the request
 * itself — bad or repeated parameters, a body that is not form-encoded (otherwise a 415) or too large
 * (otherwise a 413) — is a 400 invalid_request, and the body carries `error` and `error_description` beside
 * `code` and `message`. Refusals of Kassa's own (429 rate limit and lockout, 503, 500) stay as every route
 * answers them.
 */
export const oauth2Dialect: ErrorDialect = (error) => {
  const request = error.status === 413 || error.status === 415 || (error.status === 400 && !OAUTH2_CODES.has(error.code))
  const spoken = request ? new ApiError('invalid_request', error.message, error.details, error.headers) : error
  if (!OAUTH2_CODES.has(spoken.code)) return { error: spoken }
  return { error: spoken, fields: { error: spoken.code, error_description: rfcText(spoken.message) } }
}
