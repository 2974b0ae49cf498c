import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { ApiApp } from '../../src/http/api-app.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody } from '../support/fixtures.js'
import { COUNTERPARTIES, countCounterparties, expectError, serverOn } from './expectations.js'
import { RATE_LIMIT_STORES, logDestination } from './shared-rate-limits.js'

function rateHeaders(response: { headers: Record<string, unknown> }) {
  return {
    limit: Number(response.headers['ratelimit-limit']),
    remaining: Number(response.headers['ratelimit-remaining']),
    reset: Number(response.headers['ratelimit-reset']),
  }
}

/** The server the maintenance checks run beside; the rate limit's have their own, one per store. */
let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

// Issue 14: the same headers and semantics whichever store keeps the limits (http/rate-limits/).
describe.each(RATE_LIMIT_STORES)('rate limit: per access key over the past minute, kept in $name', (store) => {
  let tested: TestApp
  beforeAll(async () => {
    tested = await startTestApp({ rateLimitPerMinute: 3, ...store.options() })
  })
  afterAll(() => tested.close())

  it('counts down RateLimit-Remaining, then answers 429 with Retry-After, and the limit holds', async () => {
    const key = await tested.newKey('admin')
    const seen = []
    for (let i = 0; i < 3; i += 1) {
      const response = await tested.request({ method: 'GET', url: COUNTERPARTIES, as: key })
      expect(response.statusCode).toBe(200)
      seen.push(rateHeaders(response))
    }
    expect(seen.map((headers) => headers.limit)).toEqual([3, 3, 3])
    expect(seen.map((headers) => headers.remaining)).toEqual([2, 1, 0])
    expect(seen[2]!.reset).toBeGreaterThan(55)
    expect(seen[2]!.reset).toBeLessThanOrEqual(60)

    for (let i = 0; i < 2; i += 1) {
      const limited = await tested.request({ method: 'GET', url: COUNTERPARTIES, as: key })
      expectError(limited, 429, 'rate_limited')
      const retryAfter = Number(limited.headers['retry-after'])
      expect(retryAfter).toBeGreaterThan(55)
      expect(retryAfter).toBeLessThanOrEqual(60)
      expect(rateHeaders(limited)).toEqual({ limit: 3, remaining: 0, reset: retryAfter })
    }
  })

  it('counts writes and refuses them past the limit without creating anything', async () => {
    const key = await tested.newKey('admin')
    for (let i = 0; i < 3; i += 1) {
      expect((await tested.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: key })).statusCode).toBe(201)
    }
    const before = await countCounterparties(tested)
    const limited = await tested.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: key })
    expectError(limited, 429, 'rate_limited')
    expect(await countCounterparties(tested)).toBe(before)
  })

  it('counts error responses too, and carries the headers on them', async () => {
    const key = await tested.newKey('read-only')
    const forbidden = await tested.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(), as: key })
    expectError(forbidden, 403, 'forbidden')
    expect(rateHeaders(forbidden)).toMatchObject({ limit: 3, remaining: 2 })
    const notFound = await tested.request({ method: 'GET', url: `${COUNTERPARTIES}/00000000-0000-7000-8000-000000000000`, as: key })
    expectError(notFound, 404, 'not_found')
    expect(rateHeaders(notFound)).toMatchObject({ limit: 3, remaining: 1 })
  })

  it('keeps a separate budget per access key', async () => {
    const busy = await tested.newKey('admin')
    const quiet = await tested.newKey('admin')
    for (let i = 0; i < 3; i += 1) await tested.request({ method: 'GET', url: COUNTERPARTIES, as: busy })
    expectError(await tested.request({ method: 'GET', url: COUNTERPARTIES, as: busy }), 429, 'rate_limited')
    const other = await tested.request({ method: 'GET', url: COUNTERPARTIES, as: quiet })
    expect(other.statusCode).toBe(200)
    expect(rateHeaders(other)).toMatchObject({ limit: 3, remaining: 2 })
  })

  it('does not limit the health probes', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await tested.request({ method: 'GET', url: '/healthz', as: null })).statusCode).toBe(200)
      expect((await tested.request({ method: 'GET', url: '/readyz', as: null })).statusCode).toBe(200)
    }
  })

  it('does not spend a key’s budget on requests with its access key but a wrong secret', async () => {
    const key = await tested.newKey('admin')
    for (let i = 0; i < 5; i += 1) {
      const response = await tested.request({ method: 'GET', url: COUNTERPARTIES, as: { ...key, secret: 'wrong' } })
      expectError(response, 401, 'unauthorized')
    }
    const real = await tested.request({ method: 'GET', url: COUNTERPARTIES, as: key })
    expect(real.statusCode).toBe(200)
    expect(rateHeaders(real).remaining).toBe(2)
  })
})

describe('maintenance: 503 with Retry-After while health endpoints answer', () => {
  let maintenance: ApiApp
  let admin: Credentials
  beforeAll(async () => {
    // A server started with KASSA_MAINTENANCE on, beside the one above on the same database.
    maintenance = await serverOn(t.db.database, { maintenance: true })
    admin = await t.newKey('admin')
  })
  afterAll(() => maintenance.close())

  function send(method: 'GET' | 'POST', url: string, as: Credentials | null = t.owner, body?: unknown) {
    return maintenance.inject({
      method,
      url,
      headers: {
        ...(as ? { authorization: basicAuth(as) } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    })
  }

  const requests: [string, () => ReturnType<typeof send>][] = [
    ['GET list', () => send('GET', COUNTERPARTIES)],
    ['POST', () => send('POST', COUNTERPARTIES, admin, counterpartyBody())],
    ['GET by id', () => send('GET', `${COUNTERPARTIES}/00000000-0000-7000-8000-000000000000`)],
    ['POST /v1/idempotency-test', () => send('POST', '/v1/idempotency-test')],
    ['a request without credentials', () => send('GET', COUNTERPARTIES, null)],
  ]
  for (const [name, request] of requests) {
    it(`answers 503 maintenance with Retry-After to ${name}`, async () => {
      const response = await request()
      expectError(response, 503, 'maintenance')
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0)
    })
  }

  it('creates nothing while in maintenance', async () => {
    const before = await countCounterparties(t)
    await send('POST', COUNTERPARTIES, admin, counterpartyBody())
    expect(await countCounterparties(t)).toBe(before)
  })

  it('still answers /healthz and /readyz with 200', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const response = await send('GET', url, null)
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ status: 'ok' })
    }
  })
})

describe('maintenance: logged at info, without a stack trace (issue 10)', () => {
  it('a 503 maintenance writes one info line with its code, no error line and no err or stack', async () => {
    const server = await serverOn(t.db.database, { maintenance: true, logLevel: 'info' })
    try {
      const lines: Array<Record<string, unknown>> = []
      vi.spyOn(logDestination(server.log), 'write').mockImplementation((line) => lines.push(JSON.parse(line)) > 0)
      const response = await server.inject({ method: 'GET', url: COUNTERPARTIES, headers: { authorization: basicAuth(t.owner) } })
      expectError(response, 503, 'maintenance')

      const requestId = response.headers['request-id']
      const refused = lines.filter((line) => line.msg === 'request refused')
      expect(refused).toEqual([expect.objectContaining({ level: 30, code: 'maintenance', reqId: requestId })])
      expect(lines.filter((line) => Number(line.level) >= 40)).toEqual([])
      expect(lines.filter((line) => 'err' in line || JSON.stringify(line).includes('stack'))).toEqual([])
      // The capture sees the request's other lines too, so an empty list above is not a deaf stream.
      expect(lines.some((line) => line.msg === 'request completed' && line.reqId === requestId)).toBe(true)
    } finally {
      await server.close()
    }
  })
})
