import { PAGE_TOKEN } from '../api/use-list-page'
import { Link } from '../router/link'
import { useLocation, withQuery } from '../router/router'

/**
 * Links to the first and the next page of a list. Kassa's pages are cursors (spec: Pagination), so a
 * page is reached from the one before it; the previous page is one Back away, as each page is a URL.
 */
export function Pager({ nextToken, shown }: { nextToken: string; shown: number }) {
  const location = useLocation()
  const onFirstPage = !location.query.get(PAGE_TOKEN)
  if (onFirstPage && !nextToken) return null
  return (
    <nav class="pager" aria-label="Pages">
      <span class="pager-count">{shown === 1 ? '1 row' : `${shown} rows`} on this page</span>
      {!onFirstPage && (
        <Link class="button" to={withQuery(location, { [PAGE_TOKEN]: undefined })}>
          First page
        </Link>
      )}
      {nextToken && (
        <Link class="button" to={withQuery(location, { [PAGE_TOKEN]: nextToken })}>
          Next page
        </Link>
      )}
    </nav>
  )
}
