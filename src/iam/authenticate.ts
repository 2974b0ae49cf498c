import { setTimeout as delay } from 'node:timers/promises'
import type { FastifyRequest } from 'fastify'
import type { Db } from '../db/database.js'
import { ApiError } from '../http/errors.js'
import type { Actor } from './actor.js'
import { accessKeyRepo, type AccessKeyGrant } from './access-keys/access-key.repo.js'
import { recordFirstUse } from './access-keys/first-use.js'
import { createBearerAuthenticator } from './oauth2/bearer-authenticate.js'
import { isPermission, type Permission } from './permissions.js'
import { digestBytes, sameSecret, secretMatches } from './secrets.js'
import { SESSION_CHALLENGE, sessionTokenOf } from './sessions/session-cookie.js'
import { createSessionAuthenticator } from './sessions/session-authenticate.js'

/** How long a key's first request waits for its first use to be recorded before it goes on regardless. */
const FIRST_USE_WAIT_MS = 100

/** Both schemes an access key authenticates with (RFC 9110 §11.6.1: one challenge each): Basic, or a token it was issued. */
const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="kassa", charset="UTF-8", Bearer realm="kassa"' }
/** Digest of a secret no key has, compared against when the access key is unknown so both paths cost the same. */
const UNKNOWN_KEY_DIGEST = Buffer.alloc(32)

function unauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, undefined, CHALLENGE)
}

/** The dashboard's own scripts (Sec-Fetch-Site: same-origin) are challenged to sign in, not to give Basic credentials. */
function noCredentials(request: FastifyRequest): ApiError {
  const challenge = request.headers['sec-fetch-site'] === 'same-origin' ? SESSION_CHALLENGE : CHALLENGE
  return new ApiError(
    'unauthorized',
    'No credentials: use HTTP Basic authentication with ACCESS_KEY:SECRET, a bearer token (POST /iam/v2beta/oauth2/token), ' +
      'or sign in (POST /iam/v2/session)',
    undefined,
    challenge,
  )
}

/** The scheme and credentials of an Authorization header (RFC 9110 §11.6.2); the scheme in lower case. */
function schemeOf(header: string): { scheme: string; credentials: string } {
  const space = header.indexOf(' ')
  if (space < 0) return { scheme: header.toLowerCase(), credentials: '' }
  return { scheme: header.slice(0, space).toLowerCase(), credentials: header.slice(space + 1) }
}

/**
 * The access key and secret of HTTP Basic credentials (RFC 7617), or undefined when they are not
 * `ACCESS_KEY:SECRET` in base64.
 */
export function decodeBasic(encoded: string): { accessKey: string; secret: string } | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0) return undefined
  return { accessKey: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}

function actorOf(grant: AccessKeyGrant): Actor {
  const permissions = new Set<Permission>((JSON.parse(grant.permissions) as string[]).filter(isPermission))
  return {
    organizationId: grant.organizationId,
    userId: grant.userId,
    accessKeyId: grant.accessKeyId,
    roleId: grant.roleId,
    roleName: grant.roleName,
    owner: grant.owner === 1,
    permissions,
  }
}

interface KnownKey {
  actor: Actor
  secretDigest: Buffer
  /**
   * The secret that last matched the digest, kept only as long as this cache entry: later requests
   * compare against it in constant time instead of hashing again (SHA-256 costs about 10 µs of a
   * request under load, bench/). The database still holds digests only.
   */
  confirmedSecret?: Buffer
  /** The key had never authenticated a request when its grant was read: the next match is its first use (issue 13). */
  unused: boolean
}

type GrantCache = Map<string, KnownKey & { expires: number }>

/** The grant caches of this process's authenticators, held weakly so a closed app's cache can go. */
const grantCaches = new Set<WeakRef<GrantCache>>()
/** Bumped by every forget: a grant read from the database before a forget is used once but not cached. */
let forgetGeneration = 0

/**
 * Drops cached grants in this process, so a revoked key, a deleted user or a changed role takes
 * effect on the next request; other processes see it once their cache entry expires.
 * Call after the change has committed, or a request in between may cache the old grant again.
 * @param accessKeys the keys to forget; every cached grant when omitted.
 */
export function forgetCachedGrants(accessKeys?: readonly string[]): void {
  forgetGeneration += 1
  for (const ref of grantCaches) {
    const cache = ref.deref()
    if (!cache) grantCaches.delete(ref)
    else if (accessKeys === undefined) cache.clear()
    else for (const accessKey of accessKeys) cache.delete(accessKey)
  }
}

export interface AuthenticatorOptions {
  /** How long a key's grant is reused before it is read again; a revocation takes effect within this time. 0: read every time. */
  cacheMilliseconds: number
}

/**
 * Checks access keys: with its secret (HTTP Basic, the OAuth2 token endpoint's client credentials) or without
 * (a bearer token issued to the key). Each answers the key's Actor, or undefined for an unknown, revoked or
 * deactivated key or a wrong secret. Synchronous while the key's grant is cached (nearly every request), so
 * the request pipeline pays for no promise; a Promise when the grant must be read.
 */
export interface AccessKeyVerifier {
  /**
   * The secret is compared in constant time, and an unknown key costs the same digest as a known one.
   * @param onFirstUse awaited before the Actor is answered when the key had never been used (at most once per grant read).
   */
  verify(accessKey: string, secret: string, onFirstUse?: (actor: Actor) => Promise<void>): Actor | undefined | Promise<Actor | undefined>
  /** The Actor of a live key, whose secret was checked when its token was issued. */
  actorOf(accessKey: string): Actor | undefined | Promise<Actor | undefined>
}

/**
 * Grants of access keys are cached briefly per key so an authenticated read costs one SHA-256 and no extra
 * query; the secret is checked on every request.
 */
export function createAccessKeyVerifier(db: Db, options: AuthenticatorOptions): AccessKeyVerifier {
  const cache: GrantCache = new Map()
  grantCaches.add(new WeakRef(cache))
  const MAX_CACHED = 10_000

  function cached(accessKey: string): KnownKey | undefined {
    const entry = cache.get(accessKey)
    return entry && entry.expires > Date.now() ? entry : undefined
  }

  async function load(accessKey: string): Promise<KnownKey | undefined> {
    const generation = forgetGeneration
    const grant = await accessKeyRepo.findGrant(db, accessKey)
    if (!grant) {
      cache.delete(accessKey)
      return undefined
    }
    if (cache.size >= MAX_CACHED) cache.clear()
    const entry = {
      actor: actorOf(grant),
      secretDigest: digestBytes(grant.secretHash),
      unused: grant.firstUsedAt === null,
      expires: Date.now() + options.cacheMilliseconds,
    }
    if (generation === forgetGeneration && options.cacheMilliseconds > 0) cache.set(accessKey, entry)
    return entry
  }

  function matched(found: KnownKey | undefined, secret: string, onFirstUse?: (actor: Actor) => Promise<void>): Actor | undefined | Promise<Actor | undefined> {
    const presented = Buffer.from(secret, 'utf8')
    if (found?.confirmedSecret && sameSecret(presented, found.confirmedSecret)) return found.actor
    const matches = secretMatches(presented, found?.secretDigest ?? UNKNOWN_KEY_DIGEST)
    if (!found || !matches) return undefined
    found.confirmedSecret = presented
    // Only here, on the first match of a grant read from the database: cached matches of a used key never write.
    if (found.unused && onFirstUse) {
      found.unused = false
      const { actor } = found
      // Not marked (the write failed): a later request of the key marks it.
      const marking = onFirstUse(actor).catch(() => {
        found.unused = true
      })
      // The mark is its own write transaction: behind a long one (a statement import holds SQLite's writer for
      // seconds) the request goes on after FIRST_USE_WAIT_MS and the mark follows when the writer is free.
      return Promise.race([marking, delay(FIRST_USE_WAIT_MS)]).then(() => actor)
    }
    return found.actor
  }

  return {
    verify(accessKey, secret, onFirstUse) {
      if (accessKey.length > 64) return matched(undefined, secret)
      const known = cached(accessKey)
      if (known) return matched(known, secret, onFirstUse)
      return load(accessKey).then((found) => matched(found, secret, onFirstUse))
    },
    actorOf(accessKey) {
      const known = cached(accessKey)
      if (known) return known.actor
      return load(accessKey).then((found) => found?.actor)
    },
  }
}

function knownOrRefused(actor: Actor | undefined): Actor {
  if (!actor) throw unauthorized('Wrong access key or secret')
  return actor
}

/**
 * Resolves a request's credentials to an Actor: the Authorization header when it is there — HTTP Basic (an
 * access key) or Bearer (a token issued to one by POST /iam/v2beta/oauth2/token, oauth2/) — and then a session
 * cookie beside it is ignored, so the header alone decides; else the session cookie of a signed-in person
 * (sessions/session-authenticate.ts). A key's token acts exactly as the key: same Actor, same grant cache.
 * @throws ApiError unauthorized (401, with WWW-Authenticate) for missing, malformed or wrong credentials,
 * an expired or unknown token, or an ended session; forbidden (403) for a session's write without its CSRF
 * token and a same-origin Origin.
 */
export function createAuthenticator(db: Db, options: AuthenticatorOptions = { cacheMilliseconds: 5_000 }) {
  const authenticateSession = createSessionAuthenticator(db)
  const keys = createAccessKeyVerifier(db, options)
  const authenticateBearer = createBearerAuthenticator(db, keys)

  return function authenticate(request: FastifyRequest): Actor | Promise<Actor> {
    const header = request.headers.authorization
    if (header === undefined) {
      const token = sessionTokenOf(request)
      if (token === undefined) throw noCredentials(request)
      return authenticateSession(request, token)
    }
    const { scheme, credentials } = schemeOf(header)
    if (scheme === 'bearer') return authenticateBearer(credentials)
    if (scheme !== 'basic' || !credentials) throw unauthorized('The Authorization header must use the Basic or the Bearer scheme')
    const basic = decodeBasic(credentials)
    if (!basic) throw unauthorized('Basic credentials must be ACCESS_KEY:SECRET')
    const actor = keys.verify(basic.accessKey, basic.secret, (known) => recordFirstUse(db, known, { requestId: request.id, clientAddress: request.ip }))
    return actor instanceof Promise ? actor.then(knownOrRefused) : knownOrRefused(actor)
  }
}
