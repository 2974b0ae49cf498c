import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKassaClient, KassaApiError } from '../../packages/client/src/index.js'
import { backoffMilliseconds, DEFAULT_RETRY, retryAfterMilliseconds, withRetries } from '../../packages/client/src/retry.js'
import { basicAuth } from '../support/test-app.js'
import { echoed, newCounterparty, recordingFetch, startClientTestServer, type Attempt, type ClientTestServer } from './client-test-server.js'
import { startLossyProxy } from './lossy-proxy.js'

/**
 * The client's retries against a real server: which answers are retried, with which key, how long it
 * waits, and where it stops.
 */
let server: ClientTestServer
beforeAll(async () => {
  server = await startClientTestServer()
})
afterAll(() => server?.close())

const FAST = { initialDelayMilliseconds: 1, maxDelayMilliseconds: 5 }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('Idempotency-Key', () => {
  it('is added to every POST and PATCH, and a key the caller gives is kept', async () => {
    const { kassa, attempts } = server.client()
    const generated = echoed(await kassa.POST('/v1/idempotency-test'))
    expect(generated.idempotencyKey).toMatch(UUID)
    const other = echoed(await kassa.POST('/v1/idempotency-test'))
    expect(other.idempotencyKey).toMatch(UUID)
    expect(other.idempotencyKey).not.toBe(generated.idempotencyKey)
    const given = echoed(await kassa.POST('/v1/idempotency-test', { headers: { 'Idempotency-Key': 'my-own-key' } }))
    expect(given.idempotencyKey).toBe('my-own-key')
    await kassa.GET('/financial-data/v2/accounts')
    expect(attempts.map((attempt) => [attempt.method, attempt.idempotencyKey !== null])).toEqual([
      ['POST', true],
      ['POST', true],
      ['POST', true],
      ['GET', false],
    ])
  })
})

describe('retries', () => {
  it('retries a create whose answer was lost with the same key, and it creates one resource', async () => {
    const organization = await server.t.newOrganization('Lost answers GmbH')
    const proxy = await startLossyProxy(server.baseUrl)
    try {
      const kassa = createKassaClient({ baseUrl: proxy.url, ...organization, retry: FAST })
      const { data, response } = await kassa.POST('/payments/v2/counterparties', { body: newCounterparty({ alias: 'lost-answer' }) })
      expect(proxy.forwardedKeys).toHaveLength(2)
      expect(proxy.forwardedKeys[0]).toMatch(UUID)
      expect(proxy.forwardedKeys[1]).toBe(proxy.forwardedKeys[0])
      expect(response.status).toBe(201)
      expect(response.headers.get('idempotent-replayed')).toBe('true')
      const list = await server.t.request({ method: 'GET', url: '/payments/v2/counterparties', as: organization })
      expect(list.json().items.map((item: { id: string }) => item.id)).toEqual([data.id])
    } finally {
      await proxy.close()
    }
  })

  it('retries a 425 (the same key still in progress), waiting its Retry-After, until the first request’s answer is replayed', async () => {
    const key = `in-progress-${Date.now()}`
    const first = await server.holdKey(key, 1500)
    const { kassa, attempts } = server.client({ retry: { ...FAST, maxRetries: 10 } })
    const data = echoed(await kassa.POST('/v1/idempotency-test', { params: { query: { sleep: 1500 } }, headers: { 'Idempotency-Key': key } }))
    const original = await (await first.answer).json()
    expect(data).toEqual({ idempotencyKey: key, uuid: original.uuid })
    expect(attempts.map((attempt) => attempt.outcome)).toEqual([...attempts.slice(0, -1).map(() => 425), 200])
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    // Retry-After: 1 — never sooner, though the backoff alone would be a millisecond or so.
    for (let index = 1; index < attempts.length; index += 1) {
      expect(attempts[index]!.at - attempts[index - 1]!.at).toBeGreaterThanOrEqual(990)
    }
  })

  it('stops at the configured number of retries and throws the last answer', async () => {
    const { kassa, attempts } = server.client({ retry: { ...FAST, maxRetries: 2 } })
    const error = await kassa.POST('/v1/idempotency-test', { params: { query: { status: 503 } } }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(KassaApiError)
    expect(error).toMatchObject({ status: 503, code: 'unexpected_response' })
    expect((error as KassaApiError).requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(attempts.map((attempt) => attempt.outcome)).toEqual([503, 503, 503])
    expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1)
  })

  it('stops when the next wait would pass the time bound', async () => {
    const { kassa, attempts } = server.client({
      retry: { maxRetries: 1_000, maxElapsedMilliseconds: 400, initialDelayMilliseconds: 100, maxDelayMilliseconds: 100 },
    })
    const started = Date.now()
    const error = await kassa.POST('/v1/idempotency-test', { params: { query: { status: 429 } } }).catch((caught: unknown) => caught)
    const elapsed = Date.now() - started
    expect(error).toMatchObject({ status: 429 })
    // It retried until a wait of at most 100 ms would pass 400 ms, so it stopped after 300 ms, and long
    // before the count allowed.
    expect(elapsed).toBeGreaterThanOrEqual(300)
    expect(elapsed).toBeLessThan(1_000)
    expect(attempts.length).toBeGreaterThanOrEqual(2)
    expect(attempts.length).toBeLessThan(50)
    expect(attempts.every((attempt) => attempt.outcome === 429)).toBe(true)
  })

  it('does not retry a 400, and answers it as a KassaApiError naming the field', async () => {
    const { kassa, attempts } = server.client({ retry: FAST })
    const error = await kassa
      .POST('/payments/v2/counterparties', { body: newCounterparty({ partyType: 'ROBOT' as 'COMPANY' }) })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(KassaApiError)
    const apiError = error as KassaApiError
    expect(apiError).toMatchObject({ status: 400, code: 'invalid_request' })
    expect(apiError.details.map((detail) => detail.field)).toEqual(['partyType'])
    expect(attempts).toHaveLength(1)
  })

  it('retries a 500 when a retry cannot act twice (a key, or an idempotent method), and never a keyless POST', async () => {
    const attempts: Attempt[] = []
    const send = withRetries(recordingFetch(attempts), { ...FAST, maxRetries: 2 })
    const post = (headers: Record<string, string>) =>
      send(new Request(`${server.baseUrl}/v1/idempotency-test?status=500`, { method: 'POST', headers: { authorization: basicAuth(server.t.owner), ...headers } }))
    expect((await post({})).status).toBe(500)
    expect(attempts).toHaveLength(1)
    expect((await post({ 'idempotency-key': `five-hundred-${Date.now()}` })).status).toBe(500)
    expect(attempts).toHaveLength(4)
  })

  it('stops waiting when the call is aborted, and sends nothing more', async () => {
    const key = `aborted-${Date.now()}`
    const first = await server.holdKey(key, 2000)
    const { kassa, attempts } = server.client({ retry: { maxRetries: 5 } })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    const started = Date.now()
    const call = kassa.POST('/v1/idempotency-test', { params: { query: { sleep: 2000 } }, headers: { 'Idempotency-Key': key }, signal: controller.signal })
    await expect(call).rejects.toMatchObject({ name: 'AbortError' })
    // Aborted in the Retry-After wait of the 425 (a second), not after it.
    expect(Date.now() - started).toBeLessThan(900)
    expect(attempts.map((attempt) => attempt.outcome)).toEqual([425])
    await first.answer
  })

  it('sends each request once when retries are off', async () => {
    const { kassa, attempts } = server.client({ retry: false })
    await expect(kassa.POST('/v1/idempotency-test', { params: { query: { status: 503 } } })).rejects.toMatchObject({ status: 503 })
    expect(attempts).toHaveLength(1)
  })
})

describe('retry timing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T11:29:42Z')
    expect(retryAfterMilliseconds('1', now)).toBe(1_000)
    expect(retryAfterMilliseconds(' 60 ', now)).toBe(60_000)
    expect(retryAfterMilliseconds('Sat, 21 Nov 2026 11:29:45 GMT', now)).toBe(3_000)
    expect(retryAfterMilliseconds('Sat, 21 Nov 2026 11:29:40 GMT', now)).toBe(0)
    expect(retryAfterMilliseconds(null, now)).toBe(0)
    expect(retryAfterMilliseconds('soon', now)).toBe(0)
  })

  it('backs off with full jitter under a ceiling that doubles up to the maximum', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((retry) => backoffMilliseconds(retry, DEFAULT_RETRY, () => 1))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ])
    expect(backoffMilliseconds(3, DEFAULT_RETRY, () => 0.25)).toBe(1_000)
    expect(backoffMilliseconds(3, DEFAULT_RETRY, () => 0)).toBe(0)
  })
})
