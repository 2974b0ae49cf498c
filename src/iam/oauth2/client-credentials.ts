import { ApiError } from '../../http/errors.js'
import { decodeBasic } from '../authenticate.js'

/** RFC 6749 §5.2: a 401 to a client that authenticated (or should have) by HTTP Basic names that scheme. */
export const CLIENT_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="kassa", charset="UTF-8"' }

export function invalidClient(message: string): ApiError {
  return new ApiError('invalid_client', message, undefined, CLIENT_CHALLENGE)
}

/** An access key and secret presented as OAuth2 client credentials. */
export interface ClientCredentials {
  accessKey: string
  secret: string
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before they are joined for HTTP Basic. */
function formDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return undefined
  }
}

/**
 * The client credentials of a token request (RFC 6749 §2.3.1): by HTTP Basic (client_secret_basic), or as
 * the form's client_id and client_secret (client_secret_post); one method per request (RFC 6749 §2.3).
 * A client_id beside Basic credentials is allowed when it names the same access key.
 * @throws ApiError invalid_request (400: both methods at once, or a client_id that contradicts Basic),
 * invalid_client (401: no credentials, another scheme, malformed Basic credentials).
 */
export function clientCredentialsOf(
  authorization: string | undefined,
  form: { client_id?: string | undefined; client_secret?: string | undefined },
): ClientCredentials {
  if (authorization === undefined) {
    if (form.client_id === undefined || form.client_secret === undefined) {
      throw invalidClient('Client authentication is required: HTTP Basic with ACCESS_KEY:SECRET, or the form fields client_id and client_secret')
    }
    return { accessKey: form.client_id, secret: form.client_secret }
  }
  if (form.client_secret !== undefined) {
    throw new ApiError('invalid_request', 'Send the client credentials once: by HTTP Basic or as client_id and client_secret, not both')
  }
  const space = authorization.indexOf(' ')
  if (space < 0 || authorization.slice(0, space).toLowerCase() !== 'basic') {
    throw invalidClient('The token endpoint takes client credentials by HTTP Basic (ACCESS_KEY:SECRET) or in the form, not another scheme')
  }
  const basic = decodeBasic(authorization.slice(space + 1))
  const accessKey = basic && formDecoded(basic.accessKey)
  const secret = basic && formDecoded(basic.secret)
  if (!accessKey || secret === undefined) throw invalidClient('Basic credentials must be ACCESS_KEY:SECRET')
  if (form.client_id !== undefined && form.client_id !== accessKey) {
    throw new ApiError('invalid_request', 'client_id names another access key than the Basic credentials')
  }
  return { accessKey, secret }
}
