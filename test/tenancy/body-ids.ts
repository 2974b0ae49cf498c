import { randomUUID } from 'node:crypto'
import type { Answer } from '../fuzz/http-client.js'
import { fieldKey } from '../fuzz/known-ids.js'
import type { Operation } from '../fuzz/openapi-operations.js'
import { basicAuth } from '../support/test-app.js'
import { label } from './tenancy-requests.js'
import type { TenancyWorld } from './tenancy-world.js'

/**
 * Bodies that name resources by id, for the tenancy suite's check of writes that reference another
 * organization's resources: the document's example with A's ids in it, or with ids no one has, and the
 * shape of the answers to compare.
 */

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
