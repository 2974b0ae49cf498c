import type { Db } from '../../db/database.js'
import { ApiError } from '../../http/errors.js'
import type { Actor } from '../actor.js'
import type { AccessKeyVerifier } from '../authenticate.js'
import { accessTokenDigest, isAccessTokenShaped } from './access-token.js'
import { accessTokenRepo } from './access-token.repo.js'
import { TOKEN_PATH } from './oauth2.paths.js'

/** RFC 6750 §3.1: a token that is malformed, unknown, expired or no longer backed by a live key. */
function invalidToken(description: string): ApiError {
  return new ApiError('unauthorized', description, undefined, {
    'WWW-Authenticate': `Bearer realm="kassa", error="invalid_token", error_description="${description}"`,
  })
}

const EXPIRED = `The access token is unknown or has expired: request a new one (POST ${TOKEN_PATH})`
const KEY_GONE = 'The access token is no longer valid: the access key it was issued to was revoked, or its user deactivated or deleted'

interface KnownToken {
  accessKey: string
  /** Date.parse of expires_at. */
  expires: number
}

/**
 * Resolves a bearer token (RFC 6750 §2.1) to the Actor of the access key it was issued to: the same Actor,
 * through the same grant cache, as the key's Basic credentials, so its permissions, rate limit, tenant and
 * revocation are the key's. Which key a token stands for never changes, so it is read from the database once
 * per process and kept until the token expires; an unknown token is read each time it is presented.
 * @throws ApiError unauthorized (401, with a Bearer challenge naming invalid_token).
 */
export function createBearerAuthenticator(db: Db, keys: Pick<AccessKeyVerifier, 'actorOf'>) {
  const cache = new Map<string, KnownToken>()
  const MAX_CACHED = 10_000

  function keyActs(actor: Actor | undefined): Actor {
    if (!actor) throw invalidToken(KEY_GONE)
    return actor
  }

  function actorFor(token: KnownToken): Actor | Promise<Actor> {
    if (token.expires <= Date.now()) throw invalidToken(EXPIRED)
    const actor = keys.actorOf(token.accessKey)
    return actor instanceof Promise ? actor.then(keyActs) : keyActs(actor)
  }

  async function load(digest: string): Promise<Actor> {
    const found = await accessTokenRepo.find(db, digest)
    if (!found) throw invalidToken(EXPIRED)
    const token = { accessKey: found.accessKey, expires: Date.parse(found.expiresAt) }
    if (token.expires > Date.now()) {
      if (cache.size >= MAX_CACHED) cache.clear()
      cache.set(digest, token)
    }
    return actorFor(token)
  }

  return function authenticateBearer(token: string): Actor | Promise<Actor> {
    if (!isAccessTokenShaped(token)) throw invalidToken(`The bearer token is not one this server issued (POST ${TOKEN_PATH})`)
    const digest = accessTokenDigest(token)
    const known = cache.get(digest)
    if (known === undefined) return load(digest)
    if (known.expires <= Date.now()) cache.delete(digest)
    return actorFor(known)
  }
}
