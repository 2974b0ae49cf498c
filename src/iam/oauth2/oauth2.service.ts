import type { Database } from '../../db/database.js'
import { ApiError } from '../../http/errors.js'
import { isoAfter } from '../../shared/clock.js'
import { recordFirstUse } from '../access-keys/first-use.js'
import { createAccessKeyVerifier } from '../authenticate.js'
import { addressSubject } from '../sessions/sign-in-lockout.js'
import { assertNotLockedOut, recordSignInFailure, type SignInContext } from '../sessions/sign-in.service.js'
import { accessTokenDigest, newAccessToken } from './access-token.js'
import { accessTokenRepo } from './access-token.repo.js'
import { clientCredentialsOf, invalidClient } from './client-credentials.js'
import type { OAuth2AccessTokenResponse, TokenRequest } from './oauth2.schemas.js'

export interface OAuth2Options {
  /** How long an issued token is accepted (reference §10: 300 seconds). */
  tokenLifetimeSeconds: number
}

/** Where a token request comes from, and the Authorization header it carried (client_secret_basic). */
export interface TokenRequestContext extends SignInContext {
  authorization: string | undefined
}

export function createOAuth2Service(database: Database, options: OAuth2Options) {
  // The grant is read afresh for every token request, so a key revoked in any process gets no new token.
  const keys = createAccessKeyVerifier(database.db, { cacheMilliseconds: 0 })

  return {
    /**
     * The client credentials grant (RFC 6749 §4.4): checks the access key and secret as HTTP Basic would
     * (constant time, an unknown key costing the same as a wrong secret) and issues a bearer token for the key,
     * stored as its digest. A wrong key or secret counts against the address's sign-in lockout.
     * @throws ApiError unsupported_grant_type (400), invalid_request (400: credentials given twice),
     * invalid_client (401: no, malformed or wrong credentials), invalid_scope (400: any scope),
     * rate_limited (429: the address is locked out after failed sign-ins or token requests).
     */
    async issue(request: TokenRequest, context: TokenRequestContext): Promise<OAuth2AccessTokenResponse> {
      if (request.grant_type !== 'client_credentials') {
        throw new ApiError('unsupported_grant_type', `grant_type ${request.grant_type.slice(0, 64)} is not supported: only client_credentials is`)
      }
      const credentials = clientCredentialsOf(context.authorization, request)
      const now = new Date()
      const subjects = [addressSubject(context.address)]
      await assertNotLockedOut(database, subjects, now, 'sign-ins and token requests from this address')
      // A key's first use may be to get a token: logged as any first use is (issue 13).
      const actor = await keys.verify(credentials.accessKey, credentials.secret, (known) =>
        recordFirstUse(database.db, known, { requestId: context.requestId, clientAddress: context.address }),
      )
      if (!actor) {
        await recordSignInFailure(database, subjects, [], context, now)
        throw invalidClient('Wrong access key or secret')
      }
      if (request.scope !== undefined) {
        throw new ApiError('invalid_scope', "Scopes are not supported: a token acts with its access key's role; leave scope out")
      }
      const token = newAccessToken()
      await database.transaction(async (trx) => {
        await accessTokenRepo.purgeExpired(trx, now.toISOString())
        await accessTokenRepo.insert(trx, {
          token_digest: accessTokenDigest(token),
          access_key_id: actor.accessKeyId,
          created: now.toISOString(),
          expires_at: isoAfter(options.tokenLifetimeSeconds * 1000, now),
        })
      })
      return { access_token: token, token_type: 'Bearer', expires_in: options.tokenLifetimeSeconds }
    },
  }
}
