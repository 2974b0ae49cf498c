import type { RequiredKeysOf } from 'openapi-typescript-helpers'
import type { KassaClient } from './client.js'
import type { paths } from './generated/openapi.js'

interface ListPage {
  items: unknown[]
  nextToken: string
}

type ListBody<Operation> = Operation extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never

/** The paths whose GET answers with the list envelope (`items`, `nextToken`). */
export type ListPath = {
  [Path in keyof paths]: paths[Path] extends { get: infer Operation } ? (ListBody<Operation> extends ListPage ? Path : never) : never
}[keyof paths]

/** The type of one item of the list at `Path`. */
export type ListItem<Path extends ListPath> = ListBody<paths[Path]['get']>['items'][number]

type Parameters_<Path extends ListPath> = paths[Path]['get']['parameters']

/** The list's path parameters and filters; `token` is the iterator's to set. */
export type ListParams<Path extends ListPath> = Omit<Parameters_<Path>, 'query' | 'header' | 'cookie'> & {
  query?: Omit<NonNullable<Parameters_<Path>['query']>, 'token'>
}

type GetPage = (path: string, init: { params: { path?: unknown; query: Record<string, unknown> } }) => Promise<{ data: ListPage }>

/**
 * Every item of a list, page after page: each next page is asked for with the previous `nextToken` and
 * the filters unchanged, until `nextToken` is empty (spec: Pagination rules 3–5 — a page may be short or
 * even empty while more items exist, so only the empty token ends the walk).
 *
 * ```ts
 * for await (const transfer of paginate(client, '/payments/v2/credit-transfers', { query: { limit: 500 } })) { … }
 * ```
 */
export async function* paginate<Path extends ListPath>(
  client: KassaClient,
  path: Path,
  ...[params]: RequiredKeysOf<ListParams<Path>> extends never ? [ListParams<Path>?] : [ListParams<Path>]
): AsyncGenerator<ListItem<Path>, void, undefined> {
  // The generic path defeats openapi-fetch's per-path types; ListPath guarantees the envelope.
  const getPage = client.GET as unknown as GetPage
  const { query, ...rest } = (params ?? {}) as { query?: Record<string, unknown>; path?: unknown }
  let token = ''
  do {
    const { data } = await getPage(path, { params: { ...rest, query: token ? { ...query, token } : { ...query } } })
    yield* data.items as Array<ListItem<Path>>
    token = data.nextToken
  } while (token)
}
