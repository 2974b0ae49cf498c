import { createHash } from 'node:crypto'
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import stringify from 'safe-stable-stringify'
import { Type, type TSchema } from 'typebox'
import { ApiError } from './errors.js'

/**
 * Cursor (keyset) pagination shared by every list endpoint (spec: Pagination rules).
 * A token names the sort key of the last item served plus a fingerprint of the list and
 * filters it was made under, so the next page starts strictly after that item: no offsets,
 * nothing repeated or skipped while rows come and go, and a deep page costs what the first does.
 */

export const DEFAULT_LIMIT = 100
export const MAX_LIMIT = 500

export const ListQueryProperties = {
  limit: Type.Optional(Type.Integer({ description: 'Page size: below 1 becomes 1, above 500 becomes 500; default 100' })),
  token: Type.Optional(Type.String({ maxLength: 2048, description: 'The nextToken of the previous page' })),
}

export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    nextToken: Type.String({ description: 'Token for the next page; empty when no more items are known to exist' }),
    token: Type.String({ description: 'The token this page was requested with; empty when none was sent' }),
    limit: Type.Integer({ description: 'The effective limit used' }),
  })
}

export interface ListEnvelopeOf<T> {
  items: T[]
  nextToken: string
  token: string
  limit: number
}

type CursorValue = string | number

export interface PageRequest {
  limit: number
  /** Sort key of the last item already served; absent on the first page. */
  after?: CursorValue[]
  token: string
  fingerprint: string
}

/** spec: Pagination rules 2 */
export function effectiveLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT
  return Math.min(MAX_LIMIT, Math.max(1, limit))
}

function fingerprintOf(list: string, filters: Record<string, unknown>): string {
  const defined = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined))
  return createHash('sha256').update(`${list}\n${stringify(defined)}`).digest('base64url').slice(0, 16)
}

function invalidToken(error: string): ApiError {
  return new ApiError('invalid_token', `The pagination token is invalid: ${error}`, [
    { code: 'invalid_token', field: 'token', error },
  ])
}

const MAX_SQL_INTEGER = 2 ** 31 - 1

/** The SQL type of each sort-key column: a token's values must be of the same, or PostgreSQL fails the comparison. */
export type SortKeyType = 'text' | 'integer'

/** The fingerprint is no signature, so values are checked as if forged: they reach SQL as sort-key bounds. */
function isCursorValue(part: unknown, type: SortKeyType | undefined): part is CursorValue {
  // PostgreSQL text cannot hold NUL; a bound containing one fails in the driver instead of matching nothing.
  if (type === 'text') return typeof part === 'string' && !part.includes('\u0000')
  return typeof part === 'number' && Number.isInteger(part) && Math.abs(part) <= MAX_SQL_INTEGER
}

function decodeCursor(token: string, fingerprint: string, keyTypes: readonly SortKeyType[]): CursorValue[] {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))
  } catch {
    throw invalidToken('not a token this API issued')
  }
  const { f, v } = (decoded ?? {}) as { f?: unknown; v?: unknown }
  const valid =
    typeof f === 'string' && Array.isArray(v) && v.length === keyTypes.length && v.every((part, i) => isCursorValue(part, keyTypes[i]))
  if (!valid) throw invalidToken('not a token this API issued')
  // spec: Pagination rules 4 — filters stay identical across the pages of one traversal.
  if (f !== fingerprint) throw invalidToken('it was issued for a different list or other filters; restart without a token')
  return v as CursorValue[]
}

/**
 * @param list names the listing (e.g. "counterparties"), so a token of one list is refused by another.
 * @param filters every filter that shapes the result; they are fingerprinted into the token.
 * @param keyTypes the SQL type of each sort-key column, in order.
 * @throws ApiError invalid_token (400) for a token that is malformed or made under other filters.
 */
export function pageRequest(
  query: { limit?: number; token?: string },
  list: string,
  filters: Record<string, unknown>,
  keyTypes: readonly SortKeyType[],
): PageRequest {
  const fingerprint = fingerprintOf(list, filters)
  const token = query.token ?? ''
  const after = token === '' ? undefined : decodeCursor(token, fingerprint, keyTypes)
  return { limit: effectiveLimit(query.limit), after, token, fingerprint }
}

/** Rows are fetched with `limit + 1`: the extra row only says whether a next page exists. */
export function pageOf<Row, Item>(
  rows: Row[],
  page: PageRequest,
  sortKeyOf: (row: Row) => CursorValue[],
  toItem: (row: Row) => Item,
): ListEnvelopeOf<Item> {
  const { pageRows, nextToken } = pageParts(rows, page, sortKeyOf)
  return { items: pageRows.map(toItem), nextToken, token: page.token, limit: page.limit }
}

/**
 * The page as the JSON text it is sent as, each item's text made by `itemJson` (issue 14: a row's stored JSON
 * spliced in, not parsed and serialized again). The same envelope as pageOf's, in ListEnvelope's order.
 */
export function pageJson<Row>(rows: Row[], page: PageRequest, sortKeyOf: (row: Row) => CursorValue[], itemJson: (row: Row) => string): string {
  const { pageRows, nextToken } = pageParts(rows, page, sortKeyOf)
  const items = pageRows.map(itemJson).join(',')
  return `{"items":[${items}],"nextToken":${JSON.stringify(nextToken)},"token":${JSON.stringify(page.token)},"limit":${page.limit}}`
}

/** The rows a page serves (the query fetched one more than its limit) and the token of the page after it. */
function pageParts<Row>(rows: Row[], page: PageRequest, sortKeyOf: (row: Row) => CursorValue[]): { pageRows: Row[]; nextToken: string } {
  const hasMore = rows.length > page.limit
  const pageRows = hasMore ? rows.slice(0, page.limit) : rows
  const last = pageRows[pageRows.length - 1]
  const nextToken =
    hasMore && last !== undefined
      ? Buffer.from(JSON.stringify({ f: page.fingerprint, v: sortKeyOf(last) })).toString('base64url')
      : ''
  return { pageRows, nextToken }
}

/**
 * `(c1, c2, …) < (v1, v2, …)` for a descending sort key (`>` ascending). A row-value comparison,
 * which both PostgreSQL and SQLite answer with an index range scan.
 */
export function keysetAfter(columns: string[], direction: 'asc' | 'desc', values: CursorValue[]): RawBuilder<SqlBool> {
  const operator = sql.raw(direction === 'desc' ? '<' : '>')
  return sql<SqlBool>`(${sql.join(columns.map((column) => sql.ref(column)))}) ${operator} (${sql.join(values)})`
}
