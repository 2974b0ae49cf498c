import { Type, type Static } from 'typebox'

/** Everything the token endpoint asks for is short: an access key, a 43-character secret, a grant type's name. */
const Parameter = (description: string) => Type.String({ maxLength: 256, description })

/**
 * The access token request of the client credentials grant (RFC 6749 §4.4.2), form-encoded. Parameters it
 * does not know are ignored and an empty one counts as absent (RFC 6749 §3.2); a repeated one is a 400.
 */
export const TokenRequest = Type.Object(
  {
    grant_type: Parameter('`client_credentials`: the only grant this server issues tokens for'),
    client_id: Type.Optional(Parameter('The access key, when the credentials are sent in the body (client_secret_post) instead of by HTTP Basic')),
    client_secret: Type.Optional(Parameter("The access key's secret, beside client_id")),
    scope: Type.Optional(
      Parameter("Not supported: a token acts with its access key's role, and a request naming a scope is refused (invalid_scope)"),
    ),
  },
  // The credentials by HTTP Basic (client_secret_basic), which leaves the grant type alone in the form.
  { examples: [{ grant_type: 'client_credentials' }] },
)
export type TokenRequest = Static<typeof TokenRequest>

/** RFC 6749 §5.1 (the reference's OAuth2AccessTokenResponse). */
export const OAuth2AccessTokenResponse = Type.Object(
  {
    access_token: Type.String({
      description: 'Send as `Authorization: Bearer <access_token>` (RFC 6750 §2.1) on any API request until it expires: opaque, do not parse it',
    }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Optional(Type.Integer({ minimum: 1, description: 'Seconds from now the token is accepted for' })),
  },
  { examples: [{ access_token: 'kassa_at_2x3oW9yC1mDqXo3tS0u6bqv8m1l4JQp3c3h1m0vKmYc', token_type: 'Bearer', expires_in: 300 }] },
)
export type OAuth2AccessTokenResponse = Static<typeof OAuth2AccessTokenResponse>

export const OAUTH2_ERROR_CODES = ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope'] as const
export type OAuth2ErrorCode = (typeof OAUTH2_ERROR_CODES)[number]

/**
 * An error of the token endpoint: the error envelope every route answers with, and RFC 6749 §5.2's own
 * fields beside it, so that an OAuth2 library and a Kassa client both read it (`error` is the envelope's `code`).
 */
export function oauth2ErrorResponse(
  codes: readonly OAuth2ErrorCode[],
  description: string,
  headers?: Record<string, { description: string; type: 'string' }>,
) {
  return {
    description,
    ...(headers ? { headers } : {}),
    allOf: [
      { $ref: 'ErrorEnvelope#' },
      Type.Object({
        error: Type.Enum([...codes], { description: 'RFC 6749 §5.2: the same as code' }),
        error_description: Type.String({ description: 'RFC 6749 §5.2: the same as message, in printable ASCII' }),
      }),
    ],
  }
}
