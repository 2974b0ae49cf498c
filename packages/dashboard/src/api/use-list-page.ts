import type { ListItem, ListParams, ListPath } from '@kassa/client'
import { useLocation, withQuery, type Location } from '../router/router'
import { kassa } from './kassa'
import { useLoad } from './use-load'

/** One page of a list (spec: Pagination): its items and the token of the next page ("" on the last). */
export interface ListPage<Item> {
  items: Item[]
  nextToken: string
}

type GetPage = (path: string, init: { params: { path?: unknown; query: Record<string, unknown> } }) => Promise<{ data: ListPage<unknown> }>

/** The URL's query parameters that page a list; everything else in the query is the page's own (its filters). */
export const PAGE_TOKEN = 'token'
export const PAGE_SIZE = 'limit'

/**
 * One page of the list at `path`, with the page's filters in `params` and the paging itself — the page
 * token and the page size — read from the URL (`?token=…&limit=…`), so a page of results is a link that
 * can be shared, and the browser's Back button goes to the previous page.
 */
export function useListPage<Path extends ListPath>(path: Path, params: ListParams<Path> = {} as ListParams<Path>) {
  const { query } = useLocation()
  const token = query.get(PAGE_TOKEN) ?? ''
  const limit = Number(query.get(PAGE_SIZE)) || undefined
  // The generic path defeats openapi-fetch's per-path types; ListPath guarantees the list envelope.
  const getPage = kassa.GET as unknown as GetPage
  const { query: filters, ...rest } = params as { query?: Record<string, unknown>; path?: unknown }
  const request = { ...rest, query: { ...filters, ...(token ? { token } : {}), ...(limit ? { limit } : {}) } }
  return useLoad(async () => (await getPage(path, { params: request })).data as ListPage<ListItem<Path>>, [path, JSON.stringify(request)])
}

/** The current path with its filters changed, back on the first page (a token belongs to the filters it was made with). */
export function withFilters(location: Location, changes: Record<string, string | undefined>): string {
  return withQuery(location, { ...changes, [PAGE_TOKEN]: undefined })
}
