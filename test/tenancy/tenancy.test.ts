import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Operation } from '../fuzz/openapi-operations.js'
import { testBackend } from '../support/test-database.js'
import { bodyNamingA, bodyNamingNobody, namesIds, shapeOf } from './body-ids.js'
import { byBearer, byKey, bySession, exchange, label, leakedIds, refusalProblems, requestOf, type Caller } from './tenancy-requests.js'
import { externalPathOfA, pathOfA, tenancyWorld, type TenancyWorld } from './tenancy-world.js'

/**
 * Issue 14, the proof of tenancy and authorization: every operation of the OpenAPI document the app serves,
 * tried with another organization's keys and session on organization A's ids, with A's read-only key and
 * session, and with no or wrong credentials. The operations are read from the document, so a route added
 * to the API is tried here without a line of test code — and fails here until it keeps organizations apart.
 * Spec: a resource of another organization is a 404, never a 403 (STYLE.md, "Code a newcomer can read").
 */

/** Operations with no tenant: no organization's ids to try and no credentials to refuse. */
const TENANT_LESS: Record<string, string> = {
  'GET /healthz': 'the liveness probe, for load balancers: no credentials',
  'GET /readyz': 'the readiness probe: no credentials',
  'POST /iam/v2/session': 'sign-in: an email and a password make the credentials',
  'POST /iam/v2beta/oauth2/token': 'the OAuth2 token endpoint: client credentials in the form or by Basic, refused with RFC 6749 errors',
  'POST /iam/v2/oauth2/token': 'the OAuth2 token endpoint under v2: as above',
}

/** The signed-in person's own session: an access key has none (404), and every role may manage its own. */
const OWN_SESSION = new Set([
  'GET /iam/v2/session',
  'POST /iam/v2/session:signOut',
  'POST /iam/v2/session/password:change',
  'POST /iam/v2/session/totp:enroll',
  'POST /iam/v2/session/totp:confirm',
  'POST /iam/v2/session/totp:disable',
])

/** Writes any valid key may make: the idempotency test echoes a key and stores nothing but its answer (spec: Specific endpoints). */
const ANY_KEY_WRITES = new Set(['POST /v1/idempotency-test'])

let world: TenancyWorld
beforeAll(async () => {
  world = await tenancyWorld()
}, 120_000)
afterAll(() => world?.server.close())

const tenanted = () => world.operations.filter((operation) => TENANT_LESS[label(operation)] === undefined)
const withIds = () => tenanted().filter((operation) => operation.pathParams.length > 0)
const isRead = (operation: Operation) => operation.method === 'GET'

/** Every operation tried by every caller, the problems listed as `caller operation: problem`. */
async function problemsOf(callers: Caller[], operations: Operation[], check: (operation: Operation, caller: Caller) => Promise<string[]>): Promise<string[]> {
  const problems: string[] = []
  for (const operation of operations) {
    for (const caller of callers) {
      for (const problem of await check(operation, caller)) problems.push(`${caller.label} ${label(operation)}: ${problem}`)
    }
  }
  return problems
}

function aPath(operation: Operation): string {
  const path = pathOfA(world, operation)
  if (path === undefined) throw new Error(`organization A has no resource for ${label(operation)}: make one in test/tenancy/tenancy-world.ts`)
  return path
}

describe(`tenancy and authorization on every route (issue 14), ${testBackend()}`, () => {
  it('every operation of the served document is tried: the exemptions name real operations, and A has an id for every path', () => {
    const served = new Set(world.operations.map(label))
    const exempt = [...Object.keys(TENANT_LESS), ...OWN_SESSION, ...ANY_KEY_WRITES]
    expect(exempt.filter((operation) => !served.has(operation))).toEqual([])
    expect(withIds().filter((operation) => pathOfA(world, operation) === undefined).map(label)).toEqual([])
    // The document still has the shape the suite reads: many operations, most with ids.
    expect(world.operations.length).toBeGreaterThan(100)
    expect(withIds().length).toBeGreaterThan(60)
  })

  it("B's Owner key, its bearer token, B's read-only key and dashboard session on A's ids: 404 in the envelope, nothing written", async () => {
    const callers = [
      byKey("B's Owner key", world.b.owner),
      byBearer("B's Owner bearer token", world.b.ownerToken),
      bySession("B's Owner session", world.b.session),
      byKey("B's read-only key", world.b.readOnly),
    ]
    const problems = await problemsOf(callers, withIds(), async (operation, caller) => {
      // A read-only key is refused a write for its permission (403) before any id is looked at: that tells nothing.
      if (caller.label.includes('read-only') && !isRead(operation)) return []
      return refusalProblems(await exchange(world, await requestOf(world, operation, aPath(operation), caller)), 404)
    })
    expect(problems).toEqual([])
  }, 60_000)

  it("B's Owner key on A's resources named by external:{externalId}: 404 in the envelope, nothing written", async () => {
    const named: Array<{ operation: Operation; path: string }> = []
    for (const operation of withIds()) {
      const path = await externalPathOfA(world, operation)
      if (path !== undefined) named.push({ operation, path })
    }
    // Counterparties, external accounts, payments, …: the kinds with an externalId A's seeding gave them.
    expect(named.length).toBeGreaterThan(10)
    const byPath = new Map(named.map(({ operation, path }) => [operation, path]))
    const problems = await problemsOf([byKey("B's Owner key", world.b.owner)], [...byPath.keys()], async (operation, caller) =>
      refusalProblems(await exchange(world, await requestOf(world, operation, byPath.get(operation)!, caller)), 404),
    )
    expect(problems).toEqual([])
  }, 60_000)

  it("B's writes naming A's resources in the body are refused as unknown ids are, and create nothing of A's; A's Owner may send them", async () => {
    const naming = tenanted().filter((operation) => !isRead(operation) && operation.pathParams.length === 0 && namesIds(operation))
    expect(naming.length).toBeGreaterThan(5)
    const bOwner = byKey("B's Owner key", world.b.owner)
    const problems = await problemsOf([bOwner], naming, async (operation) => {
      const found: string[] = []
      const namingA = await bodyNamingA(world, operation, operation.path)
      const refused = await exchange(world, await requestOf(world, operation, operation.path, bOwner, '', namingA))
      const unknown = await exchange(world, await requestOf(world, operation, operation.path, bOwner, '', bodyNamingNobody(world, operation)))
      // Not a word more about A's ids than about ids no one has: no existence leaks (STYLE.md: another organization's is not found).
      if (shapeOf(refused.answer) !== shapeOf(unknown.answer)) found.push(`A's ids answered ${shapeOf(refused.answer)}, unknown ids ${shapeOf(unknown.answer)}`)
      const leaked = leakedIds(refused.answer.body, world.a.ids.all).filter((id) => !JSON.stringify(namingA).includes(id))
      if (leaked.length > 0) found.push(`the answer names more of A's ids: ${leaked.join(', ')}`)
      // A refusal writes nothing; a batch is the one write that records its refused records (201, every record failed).
      if (refused.answer.status >= 300) found.push(...refusalProblems(refused, refused.answer.status))
      else if (!/"succeeded":0\b/.test(refused.answer.body)) found.push(`B's request was served: ${refused.answer.status} ${refused.answer.body.slice(0, 300)}`)
      // The control: A's Owner sending that very body is served, so the refusal was about whose ids they are.
      const { answer: control } = await exchange(world, await requestOf(world, operation, operation.path, byKey("A's Owner key", world.a.owner), '', namingA))
      if (control.status < 200 || control.status >= 300 || /"succeeded":0\b/.test(control.body)) found.push(`A's own request with the body answered ${control.status}: ${control.body.slice(0, 300)}`)
      return found
    })
    expect(problems).toEqual([])
  }, 60_000)

  // After B's writes naming A's ids: what any of them created would show in B's lists.
  it("B's lists show none of A's items: as they are, filtered by A's ids, and paged with A's page tokens", async () => {
    const aIds = world.a.ids.all
    expect(aIds.length).toBeGreaterThan(50)
    const callers = [byKey("B's Owner key", world.b.owner), bySession("B's Owner session", world.b.session)]
    const lists = tenanted().filter((operation) => isRead(operation) && operation.pathParams.length === 0)
    const problems = await problemsOf(callers, lists, async (operation, caller) => {
      if (caller.kind === 'key' && OWN_SESSION.has(label(operation))) return []
      const queries = [`${operation.query.some((parameter) => parameter.name === 'limit') ? '?limit=100' : ''}`]
      for (const filter of operation.query.filter((parameter) => /Ids?$/.test(parameter.name))) {
        for (const id of world.a.ids.forField(filter.name).slice(0, 3)) queries.push(`?${filter.name}=${id}`)
      }
      if (operation.query.some((parameter) => parameter.name === 'nextToken')) {
        const aPage = await world.server.client.send(await requestOf(world, operation, operation.path, byKey("A's Owner key", world.a.owner), '?limit=1'))
        const token = (JSON.parse(aPage.body) as { nextToken?: string }).nextToken
        if (token === undefined) return [`A's first page of one has no nextToken to try (${aPage.status}): give A a second item`]
        queries.push(`?limit=100&nextToken=${encodeURIComponent(token)}`)
      }
      const found: string[] = []
      for (const query of queries) {
        const answer = await world.server.client.send(await requestOf(world, operation, operation.path, caller, query))
        // An id B sent may come back in B's own answer (a 404 naming it): the leak is any other of A's.
        const leaked = leakedIds(answer.body, aIds).filter((id) => !query.includes(id))
        if (leaked.length > 0) found.push(`${query} answered ${answer.status} with A's ids ${leaked.join(', ')}`)
        // The plain list must work; a filter or a token of A's may be refused, in the envelope.
        if (query === queries[0] ? answer.status !== 200 : answer.status >= 500) found.push(`${query} answered ${answer.status}: ${answer.body.slice(0, 200)}`)
      }
      return found
    })
    expect(problems).toEqual([])
  }, 60_000)

  it("A's read-only key and session: every read answers 2xx", async () => {
    const callers = [byKey("A's read-only key", world.a.readOnly), bySession("A's read-only session", world.a.readOnlySession)]
    const problems = await problemsOf(callers, tenanted().filter(isRead), async (operation, caller) => {
      const expected = caller.kind === 'key' && OWN_SESSION.has(label(operation)) ? 404 : 200
      const answer = await world.server.client.send(await requestOf(world, operation, aPath(operation), caller))
      return answer.status === expected ? [] : [`answered ${answer.status}, not ${expected}: ${answer.body.slice(0, 200)}`]
    })
    expect(problems).toEqual([])
  }, 60_000)

  it("A's read-only key, its bearer token and a read-only session: every write answers 403 in the envelope and writes nothing", async () => {
    const callers = [byKey("A's read-only key", world.a.readOnly), byBearer("A's read-only bearer token", world.a.readOnlyToken), bySession("A's read-only session", world.a.readOnlySession)]
    const writes = tenanted().filter((operation) => !isRead(operation) && !ANY_KEY_WRITES.has(label(operation)))
    const problems = await problemsOf(callers, writes, async (operation, caller) => {
      const own = OWN_SESSION.has(label(operation))
      if (own && caller.kind === 'session') return []
      // A bearer token is an access key's: no session of its own either (404).
      return refusalProblems(await exchange(world, await requestOf(world, operation, aPath(operation), caller)), own ? 404 : 403)
    })
    expect(problems).toEqual([])
  }, 60_000)

  it('no credentials, a wrong secret, an unknown session or bearer token: 401 in the envelope on every operation, nothing written', async () => {
    const { accessKey, secret } = world.a.owner
    const callers: Caller[] = [
      { label: 'no credentials', kind: 'none' },
      byKey("A's Owner key with a wrong secret", { accessKey, secret: `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}` }),
      bySession('an unknown session', { token: 'x'.repeat(43), body: world.a.session.body }),
      byBearer('an unknown bearer token', 'x'.repeat(43)),
    ]
    const problems = await problemsOf(callers, tenanted(), async (operation, caller) =>
      refusalProblems(await exchange(world, await requestOf(world, operation, operation.pathParams.length > 0 ? aPath(operation) : operation.path, caller)), 401),
    )
    expect(problems).toEqual([])
  }, 60_000)
})
