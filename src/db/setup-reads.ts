import { CompiledQuery, type QueryResult } from 'kysely'
import type { TransactionPath } from './read-path.js'

/**
 * Reads of an organization's setup — its name, roles, approval chains, webhooks, bank connections, the sandbox bank's
 * date — that every payment created makes, answered from memory inside a SQLite transaction while the organization's
 * state token is the one they were read under (issue 14: seven of a create's statements). Migration 0025's triggers
 * give the organization a new random token with every change to a row such a read sees, in the changing statement
 * itself, whichever connection or process makes it; a rollback restores the token with the rows. So one read of the
 * token, in the same transaction, tells whether a remembered answer is still what the read would answer.
 *
 * Only for reads of the tables migration 0025 watches, of the organization named (or of rows that belong to it), and
 * of no column its triggers leave out. PostgreSQL reads them every time (its triggers are not there): they go out in
 * the same round trip as the create's other reads.
 */
const organizationOf = new WeakMap<CompiledQuery, string>()

/** Marks `query`, bound, as a read of `organizationId`'s setup (see above); the same query, to run with runTogether. */
export function setupRead<Row>(organizationId: string, query: CompiledQuery<Row>): CompiledQuery<Row> {
  organizationOf.set(query, organizationId)
  return query
}

interface Remembered {
  token: string | null
  answer: QueryResult<unknown>
}

/**
 * Answers remembered per database (its transaction path's runner), by organization, SQL and parameters; the oldest
 * forgotten past the limit. Per database: two files may hold one organization unchanged since the migration (no
 * token) in different states — a restored backup beside the original.
 */
const rememberedBy = new WeakMap<TransactionPath['run'], Map<string, Remembered>>()
const REMEMBERED_LIMIT = 10_000

const TOKEN_SQL = 'select "token" from "setup_state_tokens" where "organization_id" = ?'

function tokenOf(run: TransactionPath['run'], organizationId: string): string | null {
  const [row] = run(CompiledQuery.raw(TOKEN_SQL, [organizationId])).rows as Array<{ token: string }>
  return row?.token ?? null
}

/** An answer shared by every request that reads it later: frozen, so that no caller changes it for the others. */
function frozen(answer: QueryResult<unknown>): QueryResult<unknown> {
  for (const row of answer.rows) Object.freeze(row)
  Object.freeze(answer.rows)
  return Object.freeze(answer)
}

/**
 * Runs `queries` in order on a SQLite transaction's connection (runTogether's direct path), answering setup reads from
 * memory where the token allows. The token is read once for a run of setup reads: any other statement may have
 * changed it.
 */
export function runWithSetupReads(run: TransactionPath['run'], queries: readonly CompiledQuery[]): QueryResult<unknown>[] {
  let remembered = rememberedBy.get(run)
  if (!remembered) rememberedBy.set(run, (remembered = new Map()))
  let tokens: Map<string, string | null> | undefined
  return queries.map((query) => {
    const organizationId = organizationOf.get(query)
    if (organizationId === undefined) {
      tokens = undefined
      return run(query)
    }
    tokens ??= new Map()
    let token = tokens.get(organizationId)
    if (token === undefined) {
      token = tokenOf(run, organizationId)
      tokens.set(organizationId, token)
    }
    const key = `${organizationId}\u0000${query.sql}\u0000${JSON.stringify(query.parameters)}`
    const known = remembered!.get(key)
    if (known && known.token === token) return known.answer
    const answer = frozen(run(query))
    remembered!.delete(key)
    if (remembered!.size >= REMEMBERED_LIMIT) remembered!.delete(remembered!.keys().next().value!)
    remembered!.set(key, { token, answer })
    return answer
  })
}
