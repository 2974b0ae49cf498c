import { createKassaClient, type Fetch } from '@kassa/client'

/**
 * The one Kassa client of the dashboard. It talks to the public API of the server that served the page
 * (same origin), as the signed-in person: the browser sends the session cookie (HttpOnly, so no script
 * here ever sees it), and every write carries the session's CSRF token, which the API requires of
 * requests made with the cookie (issue 11: X-CSRF-Token plus a same-origin Origin, which browsers add).
 */

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

let csrfToken: string | undefined
let onSessionEnded: () => void = () => undefined

/** Holds the signed-in session's CSRF token for every later write; undefined when signed out. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token
}

/** Told when the API answers 401 to a signed-in request: the session ended elsewhere (expired, revoked). */
export function whenSessionEnds(listener: () => void): void {
  onSessionEnded = listener
}

const sessionFetch: Fetch = async (request) => {
  const signedIn = csrfToken !== undefined
  if (signedIn && WRITES.has(request.method)) request.headers.set('X-CSRF-Token', csrfToken!)
  const response = await fetch(request, { credentials: 'same-origin' })
  if (signedIn && response.status === 401) onSessionEnded()
  return response
}

export const kassa = createKassaClient({
  baseUrl: window.location.origin,
  fetch: sessionFetch,
  // A person is waiting on the answer: fewer and shorter retries than a batch job would allow.
  retry: { maxRetries: 2, maxElapsedMilliseconds: 8_000 },
})
