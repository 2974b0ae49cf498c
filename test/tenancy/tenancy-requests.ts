import type { Credentials } from '../../src/iam/index.js'
import { answerProblems } from '../fuzz/answer-checks.js'
import { fingerprintChanges, type Fingerprint } from '../fuzz/db-fingerprint.js'
import type { Answer, SentRequest } from '../fuzz/http-client.js'
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
  | { label: string; kind: 'bearer'; token: string }
  | { label: string; kind: 'none' }

export const byKey = (label: string, credentials: Pick<Credentials, 'accessKey' | 'secret'>): Caller => ({ label, kind: 'key', credentials })
export const bySession = (label: string, session: Pick<SignedIn, 'token' | 'body'>): Caller => ({ label, kind: 'session', session })
/** An OAuth2 bearer token (RFC 6750) of a key: the same key, authenticated another way (issue 13). */
export const byBearer = (label: string, token: string): Caller => ({ label, kind: 'bearer', token })

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
    case 'bearer':
      return { authorization: `Bearer ${caller.token}` }
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
