import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { basicAuth } from '../support/test-app.js'
import { testBackend } from '../support/test-database.js'
import { answerProblems } from './answer-checks.js'
import { floodedBody } from './body-mutations.js'
import { ExchangeChecker } from './exchange-check.js'
import { FuzzServer, type FuzzServerOptions } from './fuzz-server.js'
import { hasEtag, type Operation } from './openapi-operations.js'
import { patchDocument } from './patch-documents.js'
import { rawExchange, malformedHttp } from './raw-http.js'
import { requestPlan, type RequestPlan } from './request-plans.js'
import type { IfMatchChoice } from './request-parts.js'
import { seedResources } from './seed-resources.js'
import { LINGER_MS, PROBE_DEADLINE_MS, startSlowProbes, type SlowProbe } from './slow-clients.js'
import { privateWebhookUrl } from './webhook-targets.js'

/**
 * The fuzz suite of issue 9, defined once for its runs: `npm test` (test/fuzz/operations.fuzz.test.ts),
 * the long run of `npm run test:slow` (test/slow/fuzz-long.test.ts), which differ only in the number of
 * runs, and the run across two server processes on one PostgreSQL database (issue 14,
 * test/slow/fuzz-processes.test.ts), whose requests go to each process in turn. Every property sends real
 * HTTP to the app on 127.0.0.1, one request at a time (so that a write can be pinned on the request that
 * made it), and holds every answer to exchange-check.ts.
 *
 * KASSA_FUZZ_SEED replays a run (the seed is printed at the start and in every failure);
 * KASSA_FUZZ_RUNS sets the runs of the main property (the focused ones get shares of it);
 * KASSA_FUZZ_SURVEY=1 lists every distinct problem instead of stopping at the first.
 */

export function fuzzRuns(fallback: number): number {
  const runs = Number(process.env.KASSA_FUZZ_RUNS ?? fallback)
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`KASSA_FUZZ_RUNS must be a positive whole number, got ${process.env.KASSA_FUZZ_RUNS}`)
  return runs
}

function fuzzSeed(): number {
  const fixed = process.env.KASSA_FUZZ_SEED
  if (fixed === undefined || fixed === '') return Math.floor(Math.random() * 2 ** 31)
  const seed = Number(fixed)
  if (!Number.isInteger(seed)) throw new Error(`KASSA_FUZZ_SEED must be a whole number, got ${fixed}`)
  return seed
}

const OWNER = { kind: 'key', key: 'owner' } as const
const CURRENT: IfMatchChoice = { kind: 'current' }

/**
 * A plan for `operation` aimed past authentication and at a known resource, without stray headers
 * (the main property covers those): what the focused properties send.
 */
function aimed(operation: Operation, plan: RequestPlan, overrides: Partial<RequestPlan>): RequestPlan {
  const ids = plan.ids.map((id) => (id.kind === 'text' ? { kind: 'known' as const, index: 0, upper: false } : id))
  return { ...plan, method: operation.method, suffix: '', auth: OWNER, ids, headers: {}, ...overrides }
}

export function defineFuzzSuite(runs: number, options: FuzzServerOptions = {}): void {
  const seed = fuzzSeed()
  /** Each property's time limit: generous, so that a slow machine fails on answers, not on the clock. */
  const timeout = (share: number) => 120_000 + runs * share * 200
  let server: FuzzServer
  let checker: ExchangeChecker
  let probes: SlowProbe[]
  let probesStarted = 0
  const started = Date.now()
  /**
   * Errors nothing caught, in this process, which is the server's: in production Node exits on the first
   * (an uncaught exception) — the server would be dead, whatever the in-process checks below say.
   */
  const uncaught: string[] = []
  const recordUncaught = (error: unknown) => {
    uncaught.push(error instanceof Error ? `${error.message}\n${error.stack?.split('\n').slice(1, 4).join('\n')}` : String(error))
  }

  beforeAll(async () => {
    process.on('uncaughtException', recordUncaught)
    process.on('unhandledRejection', recordUncaught)
    server = await FuzzServer.start(options)
    probes = startSlowProbes(server.port, server.keys.owner)
    probesStarted = Date.now()
    await seedResources(server)
    checker = new ExchangeChecker(server)
    process.stdout.write(`\nfuzz: seed ${seed} (replay with KASSA_FUZZ_SEED=${seed}), ${runs} runs, ${server.operations.length} operations, ${testBackend()}${options.processes ? `, ${options.processes} server processes` : ''}\n`)
  }, 120_000)

  afterAll(async () => {
    process.off('uncaughtException', recordUncaught)
    process.off('unhandledRejection', recordUncaught)
    process.stdout.write(`fuzz: ${checker?.requests ?? 0} checked requests in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
    await server?.close()
  })

  async function holds<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, share: number): Promise<void> {
    checker.restart()
    await fc.assert(fc.asyncProperty(arbitrary, predicate), { seed, numRuns: Math.max(10, Math.round(runs * share)) })
    checker.assertNoFindings(seed)
  }

  const operations = (filter: (operation: Operation) => boolean) => server.operations.filter(filter)
  /** Each operation's plan arbitrary, built once: building one compiles its schemas' generators. */
  const plans = new Map<Operation, fc.Arbitrary<RequestPlan>>()
  const planFor = (operation: Operation) => {
    const known = plans.get(operation)
    if (known) return known
    const built = requestPlan(operation, server.context)
    plans.set(operation, built)
    return built
  }

  it('every operation: random and near-valid requests are answered in bounds, and refusals write nothing', async () => {
    await holds(fc.oneof(...server.operations.map(planFor)), (plan) => checker.check(plan), 1)
  }, timeout(1))

  it('JSON Patch documents, valid-ish and hostile, on every PATCH route', async () => {
    const arbitrary = fc.oneof(
      ...operations((operation) => operation.method === 'PATCH' && operation.resource !== undefined).map((operation) =>
        fc
          .tuple(planFor(operation), patchDocument(operation.resource!, server.context.vocabulary), fc.constantFrom('application/json-patch+json', 'application/json'))
          .map(([plan, document, contentType]) => aimed(operation, plan, { ifMatch: CURRENT, contentType, body: { kind: 'json', value: document } })),
      ),
    )
    await holds(arbitrary, (plan) => checker.check(plan), 0.25)
  }, timeout(0.25))

  it('statement uploads: valid camt.053, broken XML, DOCTYPEs and entities, deep nesting', async () => {
    const [statements] = operations((operation) => operation.body?.contentTypes.includes('application/xml') === true)
    const arbitrary = fc.tuple(planFor(statements!), fc.nat(9)).map(([plan, dice]) => (dice < 8 ? aimed(statements!, plan, { query: [] }) : plan))
    await holds(arbitrary, (plan) => checker.check(plan), 0.1)
  }, timeout(0.1))

  it('bodies flooded with thousands of invalid items or unknown fields get a bounded error', async () => {
    const flooded = operations((operation) => operation.body !== undefined && !operation.body.contentTypes.includes('application/xml'))
    const arbitrary = fc.oneof(
      ...flooded.map((operation) =>
        fc
          .tuple(planFor(operation), floodedBody(operation.body!.schema, server.context.vocabulary))
          .map(([plan, value]) => aimed(operation, plan, { ifMatch: CURRENT, contentType: operation.body!.contentTypes[0]!, body: { kind: 'json', value } })),
      ),
    )
    // A small share: each of these bodies is up to a megabyte, and the slowest requests of the suite.
    await holds(arbitrary, (plan) => checker.check(plan), 0.05)
  }, timeout(0.05))

  it('webhook URLs that reach a private, loopback or link-local address in any spelling are refused', async () => {
    const targets = operations((operation) => operation.path.startsWith('/v1/webhooks') && operation.body?.schema.properties?.url !== undefined)
    const arbitrary = fc.tuple(fc.constantFrom(...targets), privateWebhookUrl).chain(([operation, url]) =>
      planFor(operation).map((plan) =>
        aimed(operation, plan, { query: [], contentType: 'application/json', body: { kind: 'json', value: { url, filter: [{ resource: 'counterparties', apiVersion: 2 }] } } }),
      ),
    )
    const refused = (_request: unknown, answer: { status: number }) => (answer.status < 400 ? [`the webhook URL was accepted (${answer.status})`] : [])
    await holds(arbitrary, (plan) => checker.check(plan, refused), 0.1)
  }, timeout(0.1))

  it('PATCH and DELETE without the current etag in If-Match are refused: 428 when missing, 412 when stale', async () => {
    const guarded = operations((operation) => hasEtag(operation) && (operation.method === 'PATCH' || operation.method === 'DELETE'))
    const stale = fc.constantFrom<IfMatchChoice>({ kind: 'none' }, { kind: 'text', text: 'version:0' }, { kind: 'text', text: 'version:999999' }, { kind: 'text', text: '"version:1"' }, { kind: 'text', text: 'W/"version:1"' })
    const arbitrary = fc.tuple(fc.constantFrom(...guarded), stale, fc.nat()).chain(([operation, ifMatch, index]) =>
      planFor(operation).map((plan) => {
        // An otherwise valid request: a JSON Patch that changes nothing, no body on DELETE.
        const patch = operation.method === 'PATCH'
        return aimed(operation, plan, {
          ids: operation.pathParams.map(() => ({ kind: 'known', index, upper: false })),
          query: [],
          ifMatch,
          idempotencyKey: undefined,
          contentType: patch ? 'application/json-patch+json' : undefined,
          body: patch ? { kind: 'json', value: [{ op: 'test', path: '/id', value: 'x' }] } : undefined,
        })
      }),
    )
    // 404/410: the known id is another organization's or deleted; 409: a resource no one may change (a built-in role).
    const preconditioned = (request: { headers: Record<string, string> }, answer: { status: number }) => {
      const expected = request.headers['if-match'] === undefined ? 428 : 412
      return [expected, 404, 409, 410].includes(answer.status) ? [] : [`expected ${expected} (or 404, 409, 410), got ${answer.status}`]
    }
    await holds(arbitrary, (plan) => checker.check(plan, preconditioned), 0.1)
  }, timeout(0.1))

  it("malformed and oversized HTTP gets the server's envelope too (Node's 400, 431)", async () => {
    await holds(
      malformedHttp,
      async ({ label, bytes }) => {
        const answer = await rawExchange(server.port, bytes).answer
        const problems = answerProblems(answer)
        if (problems.length > 0) checker.report({ method: 'RAW', operation: label }, { method: 'RAW', path: label, headers: {}, body: Buffer.from(bytes.slice(0, 400)) }, answer, problems)
      },
      0.03,
    )
  }, timeout(0.03))

  it('slow clients, stalled or dribbling headers or body, get a 408 in the envelope in time', async () => {
    const lingering = LINGER_MS - (Date.now() - probesStarted)
    if (lingering > 0) await new Promise((resolve) => setTimeout(resolve, lingering))
    for (const probe of probes) {
      const answer = await probe.answer
      const problems = answerProblems(answer)
      if (answer.status !== probe.expected) problems.push(`${probe.label}: answered ${answer.status || answer.failure} after ${answer.afterMs} ms, not ${probe.expected}`)
      if (problems.length > 0) checker.report({ method: 'SLOW', operation: probe.label }, { method: 'SLOW', path: probe.label, headers: {} }, answer, problems)
    }
    checker.assertNoFindings(seed)
  }, PROBE_DEADLINE_MS + LINGER_MS)

  it('the server is alive at the end: no uncaught error killed it, /healthz and authenticated reads answer 200', async () => {
    expect(uncaught.length, `${uncaught.length} uncaught errors; the first:\n${uncaught[0]}`).toBe(0)
    expect(server.exitedProcesses()).toEqual([])
    const readOnly = await server.t.newKey('read-only')
    for (const client of server.clients) {
      const health = await client.send({ method: 'GET', path: '/healthz', headers: {} })
      expect(health.status, health.body).toBe(200)
      for (const key of [server.keys.owner, readOnly]) {
        const list = await client.send({ method: 'GET', path: '/payments/v2/counterparties?limit=1', headers: { authorization: basicAuth(key) } })
        expect(list.status, list.body).toBe(200)
        expect(JSON.parse(list.body)).toMatchObject({ items: expect.any(Array), limit: 1 })
      }
    }
  })

  it('while the server shuts down, a request on an open connection gets a 503 in the envelope with Retry-After', async () => {
    const authorization = `Authorization: ${basicAuth(server.keys.owner)}`
    // Headers sent but not ended: the connection is busy, so closing leaves it open; it ends them once closing has begun.
    const late = rawExchange(server.port, `GET /payments/v2/counterparties HTTP/1.1\r\nHost: kassa\r\n${authorization}\r\n`)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const closing = server.shutDown()
    late.socket.write('\r\n')
    const answer = await late.answer
    await closing
    expect(answerProblems(answer, { shuttingDown: true }), JSON.stringify(answer)).toEqual([])
    expect(answer.status, answer.body).toBe(503)
    expect(answer.headers['retry-after']).toMatch(/^\d+$/)
  })
}
