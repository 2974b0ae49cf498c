import { randomUUID } from 'node:crypto'
import type { Credentials } from '../../src/iam/index.js'
import { answerProblems } from '../fuzz/answer-checks.js'
import { fingerprintChanges, type Fingerprint } from '../fuzz/db-fingerprint.js'
import type { Answer, SentRequest } from '../fuzz/http-client.js'
import { fieldKey } from '../fuzz/known-ids.js'
import type { Operation } from '../fuzz/openapi-operations.js'
import { HOST, OWN_ORIGIN, type SignedIn } from '../iam/session-helpers.js'
import { basicAuth } from '../support/test-app.js'
import type { TenancyWorld } from './tenancy-world.js'

/**
 * The requests of the tenancy suite: one operation, a concrete path, and who calls. The body is the
 * document's own example and If-Match the resource's current etag, so that a refusal is about who asks,
 * not about what was sent (a 400 or a 412 would prove nothing about tenancy).
 */

export type Caller =
  | { label: string; kind: 'key'; credentials: Pick<Credentials, 'accessKey' | 'secret'> }
  | { label: string; kind: 'session'; session: Pick<SignedIn, 'token' | 'body'> }
  | { label: string; kind: 'none' }

export const byKey = (label: string, credentials: Pick<Credentials, 'accessKey' | 'secret'>): Caller => ({ label, kind: 'key', credentials })
export const bySession = (label: string, session: Pick<SignedIn, 'token' | 'body'>): Caller => ({ label, kind: 'session', session })

export function label(operation: Operation): string {
  return `${operation.method} ${operation.path}`
}

/** Values for required query parameters: a date is the sandbox bank's today; anything else must be taught here. */
function requiredQuery(world: TenancyWorld, operation: Operation): string {
  const parts = operation.query
    .filter((parameter) => parameter.required)
    .map((parameter) => {
      if (parameter.schema.format === 'date') return `${parameter.name}=${world.server.context.vocabulary.today}`
      throw new Error(`${label(operation)}: no value for its required query parameter ${parameter.name}; teach tenancy-requests.ts one`)
    })
  return parts.length === 0 ? '' : `?${parts.join('&')}`
}

/** A webhook's example URL swapped for one the suite's stub DNS resolves: an unresolvable host is a 400 before anything else. */
function withReachableUrl(world: TenancyWorld, example: unknown): unknown {
  if (example === null || typeof example !== 'object' || !('url' in example)) return example
  return { ...example, url: world.server.context.vocabulary.webhookUrls[0] }
}

function credentialHeaders(caller: Caller, write: boolean): Record<string, string> {
  switch (caller.kind) {
    case 'key':
      return { authorization: basicAuth(caller.credentials) }
    case 'session':
      // As the dashboard sends it: the cookie, and on a write the CSRF token and this server's Origin.
      return { host: HOST, cookie: `kassa_session=${caller.session.token}`, ...(write ? { 'x-csrf-token': caller.session.body.csrfToken, origin: OWN_ORIGIN } : {}) }
    case 'none':
      return {}
  }
}

/** The request `caller` makes to `operation` at `path` (ids filled in), with the example body and the current etag. */
export async function requestOf(
  world: TenancyWorld,
  operation: Operation,
  path: string,
  caller: Caller,
  query = requiredQuery(world, operation),
  example = operation.body?.example,
): Promise<SentRequest> {
  const write = operation.method !== 'GET'
  const headers = credentialHeaders(caller, write)
  if (operation.headers.some((header) => header.name.toLowerCase() === 'if-match')) headers['if-match'] = await world.server.currentEtag(path)
  const body = operation.body
  if (body === undefined || example === undefined) return { method: operation.method, path: `${path}${query}`, headers }
  headers['content-type'] = body.contentTypes[0]!
  const text = typeof example === 'string' ? example : JSON.stringify(withReachableUrl(world, example))
  return { method: operation.method, path: `${path}${query}`, headers, body: Buffer.from(text) }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The kind of resource an id in a body names, as KnownIds files them: `counterpartyId` → counterparty, a
 * payment's `source: { type: 'ACCOUNT', id }` → account, an approval step's `requiredRoleIds` → role.
 */
function kindOf(field: string, parent: Record<string, unknown>): string {
  if (field === 'id' && typeof parent.type === 'string') return fieldKey(parent.type.replace(/_/g, '-').toLowerCase())
  return fieldKey(field).replace(/^required/, '')
}

/** The value at a JSON path, e.g. ['source', 'id'] or ['steps', 0, 'requiredRoleIds', 0]. */
function at(node: unknown, path: Array<string | number>): unknown {
  return path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), node)
}

/**
 * The document's example body with every id in it replaced, its payment dates made the bank's today (the
 * examples' dates are past) and its externalIds new. `idAt` gives the id for a place in the body (its JSON path and the kind of
 * resource it names); see bodyNamingA.
 */
function bodyWithIds(world: TenancyWorld, operation: Operation, idAt: (path: Array<string | number>, kind: string) => string): unknown {
  const rewrite = (node: unknown, path: Array<string | number>, parent: Record<string, unknown>): unknown => {
    const field = String([...path].reverse().find((key) => typeof key === 'string') ?? '')
    if (Array.isArray(node)) return node.map((item, index) => rewrite(item, [...path, index], parent))
    if (node !== null && typeof node === 'object') {
      const object = node as Record<string, unknown>
      return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, rewrite(value, [...path, key], object)]))
    }
    if (field === 'date' && typeof node === 'string') return world.server.context.vocabulary.today
    // Each body its own externalId: a second request must not be a 409 for reusing the first one's.
    if (field === 'externalId' && typeof node === 'string') return `tenancy-${randomUUID()}`
    return typeof node === 'string' && UUID.test(node) ? idAt(path, kindOf(field, parent)) : node
  }
  return rewrite(operation.body?.example, [], {})
}

/**
 * The example body naming organization A's resources, as A's own Owner could send it: each id taken from the
 * same place in the newest resource A's list of the collection shows (so that ids which must belong together —
 * a direct debit's mandate and its source account — do), else A's first id of that kind.
 */
export async function bodyNamingA(world: TenancyWorld, operation: Operation, collection: string): Promise<unknown> {
  const page = await world.server.client.send({ method: 'GET', path: `${collection}?limit=1`, headers: { authorization: basicAuth(world.a.owner) } })
  const newest = page.status === 200 ? (JSON.parse(page.body) as { items?: unknown[] }).items?.[0] : undefined
  return bodyWithIds(world, operation, (path, kind) => {
    const same = at(newest, path)
    if (typeof same === 'string' && UUID.test(same)) return same
    const [id] = world.a.ids.forKind(kind)
    if (id === undefined) throw new Error(`${label(operation)}: organization A has no ${kind} for the body's ${path.join('.')}`)
    return id
  })
}

/** The example body with ids no organization has, where A's were: what a refusal of A's ids must look like. */
export function bodyNamingNobody(world: TenancyWorld, operation: Operation): unknown {
  return bodyWithIds(world, operation, () => randomUUID())
}

/** An answer with its ids and times blanked, to compare a refusal of A's ids with that of unknown ones. */
export function shapeOf(answer: Answer): string {
  const body = answer.body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
  if (answer.status < 400) return `${answer.status}`
  const { code, message, details } = JSON.parse(body) as { code?: string; message?: string; details?: unknown }
  return `${answer.status} ${code}: ${message} ${JSON.stringify(details ?? [])}`
}

/** Whether the operation's example body names resources by id (a payment's account, a user's role). */
export function namesIds(operation: Operation): boolean {
  return /"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/i.test(JSON.stringify(operation.body?.example ?? null))
}

export interface Exchange {
  request: SentRequest
  answer: Answer
  /** What the database fingerprint says the request changed. */
  changes: string[]
}

/**
 * Sends the request, holding it between two fingerprints of the database. The fingerprint after one request is
 * the one before the next (nothing else writes: the workers are off), which halves the queries.
 */
export async function exchange(world: TenancyWorld, request: SentRequest): Promise<Exchange> {
  const before = lastFingerprint.get(world) ?? (await world.server.fingerprint())
  lastFingerprint.delete(world)
  const answer = await world.server.client.send(request)
  const after = await world.server.fingerprint()
  lastFingerprint.set(world, after)
  return { request, answer, changes: fingerprintChanges(before, after) }
}

const lastFingerprint = new WeakMap<TenancyWorld, Fingerprint>()

/**
 * What is wrong with an answer that had to be `expected` in the envelope with a request-id and write nothing
 * (answer-checks.ts: the fuzz suite's rules for every answer).
 */
export function refusalProblems({ request, answer, changes }: Exchange, expected: number): string[] {
  const problems = answerProblems(answer, {}, request.method)
  if (answer.status !== expected) problems.unshift(`answered ${answer.status}, not ${expected}: ${answer.body.slice(0, 200)}`)
  if (changes.length > 0) problems.push(`wrote to the database: ${changes.join(', ')}`)
  return problems
}

/** The ids of `ids` that appear in the text. */
export function leakedIds(text: string, ids: readonly string[]): string[] {
  const lower = text.toLowerCase()
  return ids.filter((id) => lower.includes(id.toLowerCase()))
}
