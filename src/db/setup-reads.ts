import { CompiledQuery, type QueryResult } from 'kysely'
import type { TransactionPath } from './read-path.js'

/**
 * Reads of an organization's setup — its name, roles, approval chains, webhooks, bank connections, the sandbox bank's
 * date, the payment's own account — that every payment created makes, answered from memory inside a SQLite transaction
 * while the organization's state token is the one they were read under (issue 14: eight of a create's statements).
 * Migration 0025's triggers (the accounts' update trigger re-created by 0026) give the organization a new random
 * token with every change to a row such a read sees, in the changing statement itself, whichever connection or
 * process makes it; a rollback restores the token with the rows. So one read of the token, in the same transaction,
 * tells whether a remembered answer is still what the read would answer.
 *
 * Only for reads of the tables those triggers watch, of the organization named (or of rows that belong to it), and
 * of no column its triggers leave out. PostgreSQL reads them every time (its triggers are not there): they go out in
 * the same round trip as the create's other reads.
 */
const SETUP_OF = Symbol('setup read of')
type Marked = CompiledQuery & { [SETUP_OF]?: string }

/** Marks `query`, bound, as a read of `organizationId`'s setup (see above); the same query, to run with runTogether. */
export function setupRead<Row>(organizationId: string, query: CompiledQuery<Row>): CompiledQuery<Row> {
  ;(query as Marked)[SETUP_OF] = organizationId
  return query
}

/** An organization's answers remembered under one token: by SQL, then parameters. A new token starts them afresh. */
interface Remembered {
  token: string | null
  answers: Map<string, Map<string, QueryResult<unknown>>>
  count: number
}

/**
 * What is remembered per database (its transaction path's runner), by organization. Per database: two files may hold
 * one organization unchanged since the migration (no token) in different states — a restored backup beside the
 * original. Bounded: past the limits an organization's answers, or the organization longest remembered, are
 * forgotten.
 */
const rememberedBy = new WeakMap<TransactionPath['run'], Map<string, Remembered>>()
const ORGANIZATIONS_LIMIT = 10_000
const ANSWERS_LIMIT = 1_000

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

/** What is remembered on the database `run` runs on; looked up only by a run that has setup reads (most have none). */
function rememberedOn(run: TransactionPath['run']): Map<string, Remembered> {
  let remembered = rememberedBy.get(run)
  if (!remembered) rememberedBy.set(run, (remembered = new Map()))
  return remembered
}

/** The organization's answers under `token`: those remembered, or none yet when the token is new. */
function answersUnder(remembered: Map<string, Remembered>, organizationId: string, token: string | null): Remembered {
  const known = remembered.get(organizationId)
  if (known && known.token === token && known.count < ANSWERS_LIMIT) return known
  remembered.delete(organizationId)
  if (remembered.size >= ORGANIZATIONS_LIMIT) remembered.delete(remembered.keys().next().value!)
  const fresh: Remembered = { token, answers: new Map(), count: 0 }
  remembered.set(organizationId, fresh)
  return fresh
}

/**
 * Runs `queries` in order on a SQLite transaction's connection (runTogether's direct path), answering setup reads from
 * memory where the token allows. The token is read once for a run of setup reads: any other statement may have
 * changed it.
 */
export function runWithSetupReads(run: TransactionPath['run'], queries: readonly CompiledQuery[]): QueryResult<unknown>[] {
  // The organization whose token was read for the run of setup reads under way, and its answers.
  let current: { organizationId: string; under: Remembered } | undefined
  return queries.map((query) => {
    const organizationId = (query as Marked)[SETUP_OF]
    if (organizationId === undefined) {
      current = undefined
      return run(query)
    }
    if (current?.organizationId !== organizationId) current = { organizationId, under: answersUnder(rememberedOn(run), organizationId, tokenOf(run, organizationId)) }
    const { under } = current
    let bySql = under.answers.get(query.sql)
    if (!bySql) under.answers.set(query.sql, (bySql = new Map()))
    const parameters = query.parameters.length === 1 ? String(query.parameters[0]) : query.parameters.join('\u0000')
    let answer = bySql.get(parameters)
    if (!answer) {
      answer = frozen(run(query))
      bySql.set(parameters, answer)
      under.count += 1
    }
    return answer
  })
}
