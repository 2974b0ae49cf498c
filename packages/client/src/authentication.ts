import { KassaApiError } from './errors.js'
import type { Fetch } from './retry.js'

/**
 * How a request proves who sends it (spec: Authentication): HTTP Basic with an access key and its secret, or
 * a bearer token (RFC 6750) — one the caller got elsewhere, or one this client asks Kassa's OAuth2 token
 * endpoint for with the key and secret (client credentials, RFC 6749 §4.4), keeps and renews.
 */

/** Kassa's token endpoint (the reference's name; /iam/v2/oauth2/token answers alike). */
export const TOKEN_PATH = '/iam/v2beta/oauth2/token'

/** A bearer token, or a function that gives the current one: it is called before every request. */
export type BearerToken = string | (() => string | Promise<string>)

/** Where each request's token comes from; `renew`, when it can, replaces a token the server refused. */
export interface TokenSource {
  current(): Promise<string>
  renew?(refused: string): Promise<string>
}

/**
 * A token is renewed this long before it expires (or halfway through a shorter life), so that a request sent
 * just before its end does not arrive just after it; Kassa's tokens live 300 seconds unless configured.
 */
const RENEW_BEFORE_EXPIRY_MILLISECONDS = 30_000

/** spec: Authentication 1–2 — Basic, with the access key as user name and the secret as password. */
export function basicAuthorization(accessKey: string, secret: string): string {
  const bytes = new TextEncoder().encode(`${accessKey}:${secret}`)
  return `Basic ${btoa(String.fromCharCode(...bytes))}`
}

/** A token the caller holds: used as given, or asked of the caller's function for every request. */
export function givenToken(token: BearerToken): TokenSource {
  return { current: async () => (typeof token === 'string' ? token : token()) }
}

interface ClientCredentials {
  baseUrl: string
  accessKey: string
  secret: string
  /** Sends the token request: the client's fetch, with its retries (a 429 or 503 here is as passing as anywhere). */
  fetch: Fetch
}

/**
 * Tokens for the access key by OAuth2 client credentials: asked for on first use, kept until shortly before
 * `expires_in` runs out, then asked for again; concurrent calls wait for the same request. A refusal of the
 * token request (a wrong secret is invalid_client) is thrown as a KassaApiError.
 */
export function clientCredentialsToken({ baseUrl, accessKey, secret, fetch }: ClientCredentials): TokenSource {
  let kept: { token: string; renewAt: number } | undefined
  let asking: Promise<string> | undefined

  async function ask(): Promise<string> {
    // The lifetime counts from before the request: the server's clock started no earlier.
    const sent = Date.now()
    const response = await fetch(
      new Request(`${baseUrl.replace(/\/+$/, '')}${TOKEN_PATH}`, {
        method: 'POST',
        // RFC 6749 §2.3.1: client_secret_basic, which every OAuth2 server must accept.
        headers: { Authorization: basicAuthorization(accessKey, secret), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      }),
    )
    if (!response.ok) throw await KassaApiError.fromResponse(response)
    const { access_token: token, expires_in: expiresIn } = (await response.json()) as { access_token: string; expires_in?: number }
    // expires_in is only RECOMMENDED (RFC 6749 §5.1): without it the token is kept until the server refuses it.
    const lifetime = expiresIn === undefined ? Infinity : expiresIn * 1000
    kept = { token, renewAt: sent + lifetime - Math.min(RENEW_BEFORE_EXPIRY_MILLISECONDS, lifetime / 2) }
    return token
  }

  function fresh(): Promise<string> {
    asking ??= ask().finally(() => (asking = undefined))
    return asking
  }

  return {
    current: async () => (kept && Date.now() < kept.renewAt ? kept.token : fresh()),
    async renew(refused) {
      // Another call may have replaced the refused token already.
      if (kept && kept.token !== refused && Date.now() < kept.renewAt) return kept.token
      kept = undefined
      return fresh()
    },
  }
}

/** RFC 6750 §3.1: the server refused the token itself (expired, revoked, unknown), not what it may do. */
function tokenRefused(response: Response): boolean {
  return response.status === 401 && /error="invalid_token"/.test(response.headers.get('WWW-Authenticate') ?? '')
}

/**
 * `next` with `Authorization: Bearer <token>` on every request. When the source can renew and the server
 * refuses the token, the request is sent once more with a new one (a 401 acted on nothing, so the resend is
 * safe); a second refusal is the caller's answer. Beneath the retries, so each attempt asks for the current token.
 */
export function withBearerToken(next: Fetch, source: TokenSource): Fetch {
  return async (request) => {
    // A body can be read once: the copy is what a resend sends.
    const spare = source.renew ? request.clone() : undefined
    const token = await source.current()
    request.headers.set('Authorization', `Bearer ${token}`)
    const response = await next(request)
    if (!spare || !tokenRefused(response)) return response
    await response.body?.cancel()
    spare.headers.set('Authorization', `Bearer ${await source.renew!(token)}`)
    return next(spare)
  }
}
