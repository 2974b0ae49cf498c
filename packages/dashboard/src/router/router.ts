import { useEffect, useState } from 'preact/hooks'

/**
 * A small History-API router: the dashboard's pages are paths under /dashboard (the server answers each
 * with index.html), and a page's list state — filters, page token, page size — lives in the query string,
 * so every view can be bookmarked and shared, and Back goes back.
 */

/** Where the server serves the dashboard (src/http/dashboard.ts). */
export const BASE = '/dashboard'

/** A path inside the dashboard ("/approvals") and its query. */
export interface Location {
  path: string
  query: URLSearchParams
}

const listeners = new Set<() => void>()
const notify = () => listeners.forEach((listener) => listener())
window.addEventListener('popstate', notify)

function currentLocation(): Location {
  const inside = window.location.pathname.slice(BASE.length)
  return { path: inside === '' ? '/' : inside, query: new URLSearchParams(window.location.search) }
}

/** The browser address of a dashboard path: `href('/approvals')` is "/dashboard/approvals". */
export function href(to: string): string {
  return to === '/' ? BASE : `${BASE}${to}`
}

/** Goes to a dashboard path ("/payments?status=CREATED"); `replace` leaves no history entry (redirects). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', href(to))
  else window.history.pushState(null, '', href(to))
  notify()
}

/** The current path and query; the component renders again when they change. */
export function useLocation(): Location {
  const [, setVersion] = useState(0)
  useEffect(() => {
    const listener = () => setVersion((version) => version + 1)
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }, [])
  return currentLocation()
}

/** The current path with some query parameters changed; undefined or "" removes one. */
export function withQuery(location: Location, changes: Record<string, string | undefined>): string {
  const query = new URLSearchParams(location.query)
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === '') query.delete(name)
    else query.set(name, value)
  }
  const search = query.toString()
  return search ? `${location.path}?${search}` : location.path
}

/** The parameters of `path` when it fits `pattern` ("/payments/:kind/:id"), else undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/')
  const have = path.split('/')
  if (want.length !== have.length) return undefined
  const params: Record<string, string> = {}
  for (const [index, part] of want.entries()) {
    const actual = have[index]!
    if (part.startsWith(':')) {
      if (actual === '') return undefined
      params[part.slice(1)] = decodeURIComponent(actual)
    } else if (part !== actual) return undefined
  }
  return params
}
