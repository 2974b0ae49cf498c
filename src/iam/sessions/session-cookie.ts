import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import type { FastifyRequest } from 'fastify'
import { hashSecret } from '../secrets.js'

/**
 * The session's credential travels in one cookie and its CSRF token in a header; this file is everything
 * about their form. The token is 32 random bytes, stored only as its SHA-256 digest (like access key
 * secrets: too long to guess, so a fast digest suffices). The CSRF token is an HMAC of the session token,
 * so it is bound to the session, needs no storage, and the server can compute it again for the page that
 * reloads (GET /iam/v2/session) while a site that only rides on the cookie never learns it.
 */
export const SESSION_COOKIE = 'kassa_session'
export const CSRF_HEADER = 'x-csrf-token'
/**
 * The challenge of a 401 to a browser's page (RFC 9110 §15.5.2: a 401 names a scheme): not Basic, to which
 * a browser answers with its own password dialog, even for a page's fetch.
 */
export const SESSION_CHALLENGE = { 'WWW-Authenticate': 'Session realm="kassa"' }

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url')
}

export const tokenDigest = hashSecret

export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('kassa csrf token').digest('base64url')
}

/** Constant-time comparison of the presented CSRF token with the one the session's token yields. */
export function csrfTokenMatches(sessionToken: string, presented: string | string[] | undefined): boolean {
  if (typeof presented !== 'string') return false
  const expected = Buffer.from(csrfTokenOf(sessionToken))
  const given = Buffer.from(presented)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** The session token from the Cookie header (RFC 6265 §5.4: `name=value` pairs separated by `; `), if any. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie
  if (!header) return undefined
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=')
    if (equals > 0 && pair.slice(0, equals).trim() === SESSION_COOKIE) {
      const value = pair.slice(equals + 1).trim()
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined
    }
  }
  return undefined
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'))
}

/**
 * Plain http from a loopback address: the one case where the cookie goes without `Secure` (a local `npm start`).
 * Behind a proxy named in KASSA_TRUST_PROXY, protocol and address are the client's (X-Forwarded-Proto/-For), so a
 * TLS proxy on the same machine still gets `Secure`; without it they are the socket's.
 */
function isLocalPlainHttp(request: FastifyRequest): boolean {
  return request.protocol === 'http' && isLoopback(request.ip)
}

/**
 * `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's request carries it), `Path=/`, and
 * `Secure` unless the request came over plain http to a loopback address. No Max-Age: the browser drops
 * it when it closes, and the server ends the session on its own terms anyway (session.policy.ts).
 */
export function sessionCookie(request: FastifyRequest, token: string): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict${isLocalPlainHttp(request) ? '' : '; Secure'}`
}

/** Tells the browser to drop the cookie (sign-out, or a cookie whose session has ended). */
export function clearedSessionCookie(request: FastifyRequest): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${isLocalPlainHttp(request) ? '' : '; Secure'}`
}

/**
 * Is the request's Origin this server's own (same-origin)? The origin is the Host the request was sent to,
 * with `https`, or with `http` when the request itself came over plain http (a TLS-terminating proxy in
 * front sees plain http, but the browser behind it sends `https`). A request without Origin is not
 * same-origin: browsers send it on every state-changing request.
 */
export function isSameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin
  const host = request.headers.host
  if (!origin || !host) return false
  const lower = origin.toLowerCase()
  return lower === `https://${host.toLowerCase()}` || (request.protocol === 'http' && lower === `http://${host.toLowerCase()}`)
}

/** A browser's request from another site's page (an Origin that is not ours); a request without Origin is not one. */
export function isCrossSite(request: FastifyRequest): boolean {
  return request.headers.origin !== undefined && !isSameOrigin(request)
}
