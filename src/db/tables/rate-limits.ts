/** Shared rate-limit counts (http/rate-limits/database-store.ts). Column conventions: see ../schema.ts. */

export interface RateLimitHitsTable {
  /** The limit's name, e.g. `requests` or `failed-authentications:address`. */
  limiter: string
  /** Whom the limit counts: an access key id, a client address. */
  key: string
  /** The second (Unix time) the requests were admitted in. */
  at_second: number
  /** The process that admitted them: a random id per running store. */
  process: string
  hits: number
}
