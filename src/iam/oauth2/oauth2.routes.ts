import type { FastifyRequest } from 'fastify'
import type { ApiApp } from '../../http/api-app.js'
import { registerErrorHandler } from '../../http/error-handler.js'
import { ApiError } from '../../http/errors.js'
import { errorResponses } from '../../http/route-schemas.js'
import { CLIENT_CHALLENGE } from './client-credentials.js'
import { oauth2Dialect } from './oauth2-errors.js'
import { TOKEN_PATH, TOKEN_PATH_V2 } from './oauth2.paths.js'
import { OAuth2AccessTokenResponse, oauth2ErrorResponse, TokenRequest } from './oauth2.schemas.js'
import { createOAuth2Service, type OAuth2Options } from './oauth2.service.js'

const tags = ['Users']
const FORM_TYPE = 'application/x-www-form-urlencoded'
/** A token request is a few short parameters. */
const TOKEN_REQUEST_LIMIT = 8 * 1024

/**
 * The form body as parameters (RFC 6749 Appendix B: UTF-8, form-encoded). An empty parameter counts as
 * absent and a repeated one is refused (RFC 6749 §3.2). Object.fromEntries, so `__proto__` is a name like any other.
 */
function formParameters(body: string): Record<string, string> {
  const parameters = new Map<string, string>()
  for (const [name, value] of new URLSearchParams(body)) {
    if (value === '') continue
    if (parameters.has(name)) {
      throw new ApiError('invalid_request', `The parameter ${name.slice(0, 64)} is given more than once`, [
        { code: 'repeated', field: name.slice(0, 64), error: 'is given more than once' },
      ])
    }
    parameters.set(name, value)
  }
  return Object.fromEntries(parameters)
}

const HEADERS_200 = {
  'Cache-Control': { type: 'string', description: 'no-store: a token is never cached (RFC 6749 §5.1)' },
  Pragma: { type: 'string', description: 'no-cache' },
} as const

/**
 * POST /iam/v2beta/oauth2/token (and /iam/v2/oauth2/token) takes no API credentials but client credentials:
 * it is registered in the public scope (src/app.ts), in a scope of its own that reads form bodies and words
 * its errors as RFC 6749 §5.2 does.
 */
export function oauth2TokenRoutes(app: ApiApp, options: OAuth2Options): void {
  const service = createOAuth2Service(app.database, options)

  void app.register(async (scope: ApiApp) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: TOKEN_REQUEST_LIMIT }, (_request, body, done) => {
      try {
        done(null, formParameters(body as string))
      } catch (error) {
        done(error as Error, undefined)
      }
    })
    scope.addContentTypeParser('*', (request: FastifyRequest, _payload, done) => {
      const type = request.headers['content-type']
      const given = type === undefined ? 'no Content-Type was given' : `not ${type.slice(0, 100)}`
      done(new ApiError('invalid_request', `Send the token request as ${FORM_TYPE} (RFC 6749 4.4.2); ${given}`), undefined)
    })
    registerErrorHandler(scope, oauth2Dialect)

    for (const url of [TOKEN_PATH, TOKEN_PATH_V2]) {
      scope.post(
        url,
        {
          schema: {
            tags,
            summary: 'Get an access token for an access key (OAuth2 client credentials)',
            description:
              `The client credentials grant (RFC 6749 §4.4): send \`grant_type=client_credentials\` form-encoded, with the ` +
              'access key and its secret by HTTP Basic (client_secret_basic) or as the form fields client_id and ' +
              'client_secret (client_secret_post). The answer is a bearer token (RFC 6750) that any API request may send ' +
              'as `Authorization: Bearer <access_token>` instead of the Basic credentials, with the same effect: the key acts, ' +
              `with its role's permissions, its rate limit and its organization. A token lives ${options.tokenLifetimeSeconds} ` +
              'seconds by default (`expires_in`; there is no refresh token: ask for a new one) and stops working when its key ' +
              'is revoked or its user deactivated or deleted. Errors are the error envelope with RFC 6749 §5.2 fields beside it: ' +
              '`error` (the same as `code`: invalid_request, invalid_client, unsupported_grant_type, invalid_scope) and ' +
              '`error_description`. A wrong key or secret is a 401 that counts toward the sign-in lockout of the address ' +
              '(20 failures: 429 with Retry-After, for sign-in too). ' +
              `${url === TOKEN_PATH ? `${TOKEN_PATH_V2} answers alike.` : `The same as ${TOKEN_PATH}.`}`,
            consumes: [FORM_TYPE],
            body: TokenRequest,
            response: {
              200: { ...OAuth2AccessTokenResponse, headers: HEADERS_200 },
              ...errorResponses(429),
              400: oauth2ErrorResponse(
                ['invalid_request', 'unsupported_grant_type', 'invalid_scope'],
                'invalid_request (a parameter missing, repeated or too long; a body that is not form-encoded), unsupported_grant_type, invalid_scope',
              ),
              401: oauth2ErrorResponse(['invalid_client'], 'invalid_client: no, malformed or wrong client credentials', {
                'WWW-Authenticate': { type: 'string', description: `${CLIENT_CHALLENGE['WWW-Authenticate']} (RFC 6749 §5.2)` },
              }),
            },
          },
        },
        async (request, reply) => {
          const token = await service.issue(request.body, {
            address: request.ip,
            userAgent: request.headers['user-agent'],
            log: request.log,
            requestId: request.id,
            authorization: request.headers.authorization,
          })
          return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(token)
        },
      )
    }
  })
}
