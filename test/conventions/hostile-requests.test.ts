import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_HEADER_BYTES } from '../../src/http/client-errors.js'
import { MAX_ERROR_DETAILS } from '../../src/http/errors.js'
import { MAX_JSON_DEPTH } from '../../src/http/json-depth.js'
import { PERMISSIONS } from '../../src/iam/permissions.js'
import { BODY_GRACE_MS, HEADERS_TIMEOUT_MS, TIMEOUT_CHECK_INTERVAL_MS } from '../../src/http/request-timeouts.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { rawExchange } from '../support/raw-http.js'
import { COUNTERPARTIES, createCounterparty, expectError, seen } from './expectations.js'

/**
 * Issue 9: requests an attacker would send — deep, huge, slow — each get a bounded 4xx in the envelope
 * with a request-id, and the server keeps answering everyone else.
 */

let t: TestApp
let port = 0
let auth = ''

beforeAll(async () => {
  t = await startTestApp()
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  port = (t.app.server.address() as AddressInfo).port
  auth = basicAuth(t.owner)
})
afterAll(() => t.close())

/** JSON text nesting arrays `depth` deep, written out: JSON.stringify itself would overflow the stack. */
function nested(depth: number): string {
  return `${'['.repeat(depth)}"deep"${']'.repeat(depth)}`
}

const JSON_TYPE = { 'content-type': 'application/json' }

describe('deeply nested JSON', () => {
  it(`is refused before anything walks it: a JSON Patch value 8,000 deep is a 400 naming the limit (${MAX_JSON_DEPTH})`, async () => {
    const counterparty = await createCounterparty(t)
    const response = await t.request({
      method: 'PATCH',
      url: `${COUNTERPARTIES}/${counterparty.id}`,
      headers: { 'content-type': 'application/json-patch+json', 'if-match': counterparty.etag },
      body: `[{"op":"replace","path":"/alias","value":${nested(8_000)}}]`,
    })
    const body = expectError(response, 400, 'invalid_request')
    expect(body.message).toContain(`more than ${MAX_JSON_DEPTH} levels deep`)
    expect(body.details).toEqual([{ code: 'too_deep', field: '', error: `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep` }])
  })

  it('is refused on POST too, also without If-Match or before validation', async () => {
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, headers: JSON_TYPE, body: `{"legalName":${nested(100_000)}}` })
    expectError(response, 400, 'invalid_request')
  })

  it('at the limit is parsed and judged by the schema as usual', async () => {
    const response = await t.request({ method: 'POST', url: COUNTERPARTIES, headers: JSON_TYPE, body: nested(MAX_JSON_DEPTH) })
    const body = expectError(response, 400, 'invalid_request')
    expect(body.message).toBe('The request body failed validation')
  })
})

describe('error bodies are bounded', () => {
  it('100,000 bad permission names give a small 400 at once: the first details, a count of the rest, the allowed values named once', async () => {
    const permissions = Array.from({ length: 100_000 }, (_, index) => `p${index}`)
    const started = performance.now()
    const response = await t.request({ method: 'POST', url: '/iam/v2/roles', body: { name: 'Clerk', permissions } })
    // Measured 41 s of CPU before (AJV compared every pair for uniqueItems); about 0.3 s now.
    expect(performance.now() - started).toBeLessThan(5_000)
    const body = expectError(response, 400, 'invalid_request')
    expect(response.body.length).toBeLessThan(16 * 1024)
    expect(body.details).toHaveLength(MAX_ERROR_DETAILS)
    expect(body.detailsOmitted).toBeGreaterThan(0)
    expect(body.details!.length + body.detailsOmitted!).toBeGreaterThanOrEqual(100_000)
    expect(response.body.split('approval_chains:delete').length - 1).toBe(1)
    expect(body.details![0]).toEqual({ code: 'invalid_value', field: 'permissions', error: `must NOT have more than ${PERMISSIONS.length} items` })
    expect(body.details![1]).toMatchObject({ field: 'permissions.0', error: expect.stringContaining('must be one of [accounts:read,') })
    expect(body.details![2]).toEqual({ code: 'invalid_value', field: 'permissions.1', error: 'must be one of the values listed for permissions.0' })
  })

  it('cuts texts that echo the client: a 15 KB If-Match is not sent back whole', async () => {
    const counterparty = await createCounterparty(t)
    const response = await t.request({
      method: 'PATCH',
      url: `${COUNTERPARTIES}/${counterparty.id}`,
      headers: { 'content-type': 'application/json-patch+json', 'if-match': 'x'.repeat(15_000) },
      body: JSON.stringify([{ op: 'replace', path: '/alias', value: 'a' }]),
    })
    const body = expectError(response, 412, 'precondition_failed')
    expect(body.message.length).toBeLessThanOrEqual(1_000)
    expect(body.message.endsWith('…')).toBe(true)
  })
})

describe('headers the server will not read', () => {
  const withFiller = (bytes: number) => `GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Filler: ${'x'.repeat(bytes)}\r\n\r\n`

  it(`up to ${MAX_HEADER_BYTES / 1024} KiB (MAX_HEADER_BYTES, the server's maxHeaderSize): read and answered`, async () => {
    const answer = await rawExchange(port, { head: withFiller(MAX_HEADER_BYTES - 1024), waitMilliseconds: 5_000 })
    expect(answer.status).toBe(200)
  })

  it(`over ${MAX_HEADER_BYTES / 1024} KiB: 431 in the envelope with a request-id naming the limit, connection closed`, async () => {
    const answer = await rawExchange(port, { head: withFiller(MAX_HEADER_BYTES + 1024), waitMilliseconds: 5_000 })
    const body = expectError({ status: answer.status!, headers: answer.headers, body: answer.body }, 431, 'headers_too_large')
    expect(body.message).toBe(`The request headers are larger than ${MAX_HEADER_BYTES / 1024} KiB`)
    expect(answer.headers.connection).toBe('close')
    expect(answer.closedAfter).toBeDefined()
  })
})

describe('HTTP that Node would answer bare gets the envelope (found by the fuzz suite)', () => {
  function envelopeOf(answer: Awaited<ReturnType<typeof rawExchange>>, status: number, code: string) {
    return expectError({ status: answer.status!, headers: answer.headers, body: answer.body }, status, code)
  }

  it('an Expect other than 100-continue: 417', async () => {
    const answer = await rawExchange(port, {
      head: `POST ${COUNTERPARTIES} HTTP/1.1\r\nHost: localhost\r\nExpect: x-unknown\r\nContent-Length: 0\r\n\r\n`,
      waitMilliseconds: 5_000,
    })
    expect(envelopeOf(answer, 417, 'expectation_failed').message).toBe('Expect: x-unknown is not supported; only 100-continue is')
  })

  it('HTTP/1.1 without Host: 400 (RFC 9112 §3.2)', async () => {
    const answer = await rawExchange(port, { head: 'GET /healthz HTTP/1.1\r\n\r\n', waitMilliseconds: 5_000 })
    expect(envelopeOf(answer, 400, 'invalid_request').message).toBe('An HTTP/1.1 request needs a Host header (RFC 9112 §3.2)')
  })

  it('CONNECT: 405, and the connection closed', async () => {
    const answer = await rawExchange(port, { head: 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n', waitMilliseconds: 5_000 })
    envelopeOf(answer, 405, 'method_not_allowed')
    expect(answer.closedAfter).toBeDefined()
  })

  it('HEAD with headers over 16 KiB: the 431 without a body, which HEAD answers never have', async () => {
    const answer = await rawExchange(port, {
      head: `HEAD /healthz HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'x'.repeat(20_000)}\r\n\r\n`,
      waitMilliseconds: 5_000,
    })
    expect(answer.status).toBe(431)
    expect(answer.headers['request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(answer.body).toBe('')
  })
})

describe.concurrent('slow clients are timed out', () => {
  const bound = BODY_GRACE_MS + 3 * TIMEOUT_CHECK_INTERVAL_MS

  it('a body sent a byte every 2 s: 408 in the envelope within the grace period, connection closed', async () => {
    const answer = await rawExchange(port, {
      head: `POST ${COUNTERPARTIES} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`,
      drip: Array.from({ length: 30 }, () => ' '),
      dripMilliseconds: 2_000,
      waitMilliseconds: bound + 5_000,
    })
    const body = expectError({ status: answer.status!, headers: answer.headers, body: answer.body }, 408, 'request_timeout')
    expect(body.message).toMatch(/slower than 1024 bytes per second/)
    expect(answer.closedAfter).toBeGreaterThanOrEqual(BODY_GRACE_MS)
    expect(answer.closedAfter).toBeLessThan(bound)
  })

  it('the same without credentials: the 401 comes at once and the connection closes with it', async () => {
    const answer = await rawExchange(port, {
      head: `POST ${COUNTERPARTIES} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`,
      drip: Array.from({ length: 30 }, () => ' '),
      dripMilliseconds: 2_000,
      waitMilliseconds: 5_000,
    })
    expectError({ status: answer.status!, headers: answer.headers, body: answer.body }, 401, 'unauthorized')
    expect(answer.closedAfter).toBeLessThan(3_000)
  })

  it('a GET whose body dribbles is answered and the connection closed, the body never read', async () => {
    const answer = await rawExchange(port, {
      head: `GET /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{`,
      drip: Array.from({ length: 30 }, () => ' '),
      dripMilliseconds: 2_000,
      waitMilliseconds: 5_000,
    })
    expect(answer.status).toBe(200)
    expect(answer.closedAfter).toBeLessThan(3_000)
  })

  it(`headers sent a line every 2 s: 408 in the envelope after ${HEADERS_TIMEOUT_MS / 1000} s`, async () => {
    const answer = await rawExchange(port, {
      head: 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n',
      drip: Array.from({ length: 30 }, (_, index) => `X-Slow-${index}: 1\r\n`),
      dripMilliseconds: 2_000,
      waitMilliseconds: HEADERS_TIMEOUT_MS + 8_000,
    })
    expectError({ status: answer.status!, headers: answer.headers, body: answer.body }, 408, 'request_timeout')
    expect(answer.closedAfter).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS)
    expect(answer.closedAfter).toBeLessThan(HEADERS_TIMEOUT_MS + 3 * TIMEOUT_CHECK_INTERVAL_MS)
  })

  it('while slow clients wait, everyone else is answered at once', async () => {
    for (let index = 0; index < 5; index += 1) {
      const started = Date.now()
      const response = await fetch(`http://127.0.0.1:${port}${COUNTERPARTIES}`, { headers: { authorization: auth } })
      expect(response.status).toBe(200)
      expect(Date.now() - started).toBeLessThan(1_000)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
  })

  it('a body over the limit is answered 413 unread, and nothing fails later in the process (found by the fuzz suite)', async () => {
    const uncaught: unknown[] = []
    const collect = (error: unknown) => uncaught.push(error)
    process.on('uncaughtException', collect)
    try {
      const answer = await rawExchange(port, {
        head: `POST ${COUNTERPARTIES} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n${'x'.repeat(2_000_000)}`,
        waitMilliseconds: 5_000,
      })
      expectError({ status: answer.status!, headers: answer.headers, body: answer.body }, 413, 'payload_too_large')
      // The body watch would have fired after BODY_IDLE_TIMEOUT_MS on the unread body.
      await new Promise((resolve) => setTimeout(resolve, BODY_GRACE_MS + 3 * TIMEOUT_CHECK_INTERVAL_MS))
    } finally {
      process.off('uncaughtException', collect)
    }
    expect(uncaught.map((e) => String((e as Error)?.stack ?? e))).toEqual([])
  })

  it('a body that arrives whole, even a large one, is not affected', async () => {
    const response = seen(
      await t.app.inject({
        method: 'POST',
        url: '/iam/v2/roles',
        headers: { authorization: auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Auditor', description: 'd'.repeat(400), permissions: ['accounts:read'] }),
      }),
    )
    expect(response.status).toBe(201)
  })
})
