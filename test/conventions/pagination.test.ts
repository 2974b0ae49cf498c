import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { COUNTERPARTIES, createCounterparty, expectError } from './expectations.js'

let t: TestApp
/** An organization with five counterparties that the read-only tests below share; newest first. */
let shared: { org: Credentials; newestFirst: string[] }
beforeAll(async () => {
  t = await startTestApp()
  const { org, ids } = await organizationWith(5)
  shared = { org, newestFirst: [...ids].reverse() }
})
afterAll(() => t.close())

interface Page {
  items: { id: string; legalName: string }[]
  nextToken: string
  token: string
  limit: number
}

async function page(url: string, as: Credentials = t.owner): Promise<Page> {
  const response = await t.request({ method: 'GET', url, as })
  expect(response.statusCode).toBe(200)
  const body = response.json() as Page
  expect(Object.keys(body).sort()).toEqual(['items', 'limit', 'nextToken', 'token'])
  return body
}

function withToken(url: string, token: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`
}

/** An organization of its own holding `count` counterparties, so lists start from a known state. */
async function organizationWith(count: number): Promise<{ org: Credentials; ids: string[] }> {
  const org = await t.newOrganization()
  const ids: string[] = []
  for (let i = 0; i < count; i += 1) ids.push((await createCounterparty(t, { legalName: `Party ${i}` }, org)).id)
  return { org, ids }
}

describe('the list envelope {items, nextToken, token, limit}', () => {
  it('lists newest first, with an empty nextToken and token when everything fits', async () => {
    const body = await page(COUNTERPARTIES, shared.org)
    expect(body.items.map((item) => item.id)).toEqual(shared.newestFirst)
    expect(body).toMatchObject({ nextToken: '', token: '', limit: 100 })
  })

  it('gives an empty nextToken when the last page is exactly full', async () => {
    const body = await page(`${COUNTERPARTIES}?limit=5`, shared.org)
    expect(body.items).toHaveLength(5)
    expect(body.nextToken).toBe('')
  })

  it('echoes the token it was sent', async () => {
    const first = await page(`${COUNTERPARTIES}?limit=1`, shared.org)
    expect(first.nextToken).not.toBe('')
    const second = await page(withToken(`${COUNTERPARTIES}?limit=1`, first.nextToken), shared.org)
    expect(second.token).toBe(first.nextToken)
    expect(second.items.map((item) => item.id)).toEqual([shared.newestFirst[1]])
  })

  it('treats an empty token as the first page', async () => {
    const body = await page(`${COUNTERPARTIES}?token=`, shared.org)
    expect(body.items).toHaveLength(5)
    expect(body.token).toBe('')
  })

  it('answers an empty list for an organization without counterparties', async () => {
    const empty = await t.newOrganization()
    expect(await page(COUNTERPARTIES, empty)).toEqual({ items: [], nextToken: '', token: '', limit: 100 })
  })
})

describe('limit: below 1 → 1, above 500 → 500, absent → 100, not an integer → 400', () => {
  const coerced: [string, number][] = [
    ['', 100],
    ['?limit=0', 1],
    ['?limit=-5', 1],
    ['?limit=1', 1],
    ['?limit=500', 500],
    ['?limit=501', 500],
    ['?limit=1000', 500],
    ['?limit=99999999999', 500],
  ]
  for (const [query, limit] of coerced) {
    it(`${query || 'no limit'} → limit ${limit}`, async () => {
      expect((await page(`${COUNTERPARTIES}${query}`)).limit).toBe(limit)
    })
  }

  it('serves at most `limit` items', async () => {
    const body = await page(`${COUNTERPARTIES}?limit=0`, shared.org)
    expect(body.items).toHaveLength(1)
    expect(body.nextToken).not.toBe('')
  })

  for (const value of ['abc', '1.5', '1e', 'true', '']) {
    it(`limit=${value} → 400 naming limit`, async () => {
      const response = await t.request({ method: 'GET', url: `${COUNTERPARTIES}?limit=${value}` })
      const body = expectError(response, 400, 'invalid_request')
      expect(body.details?.[0]?.field).toBe('limit')
    })
  }
})

describe('keyset traversal', () => {
  it('neither repeats nor skips items that exist throughout, while others are inserted and deleted', async () => {
    const { org, ids } = await organizationWith(12)
    const newestFirst = [...ids].reverse()
    const deleted = new Set<string>()
    const deletedBeforeServed = new Set<string>()
    const seen: string[] = []
    let token = ''
    let pages = 0
    do {
      const body = await page(withToken(`${COUNTERPARTIES}?limit=4`, token), org)
      seen.push(...body.items.map((item) => item.id))
      token = body.nextToken
      pages += 1
      // Between pages: one new counterparty, one deleted that was already served, one deleted that was not yet.
      await createCounterparty(t, { legalName: `Inserted ${pages}` }, org)
      const served = seen.find((id) => !deleted.has(id))!
      const ahead = newestFirst.find((id) => !seen.includes(id) && !deleted.has(id))
      for (const id of [served, ahead]) {
        if (id === undefined) continue
        expect((await t.request({ method: 'DELETE', url: `${COUNTERPARTIES}/${id}`, headers: { 'if-match': 'version:1' }, as: org })).statusCode).toBe(204)
        deleted.add(id)
      }
      if (ahead !== undefined) deletedBeforeServed.add(ahead)
    } while (token !== '')

    expect(new Set(seen).size).toBe(seen.length)
    const existedThroughout = newestFirst.filter((id) => !deleted.has(id) || seen.includes(id))
    expect(seen.filter((id) => newestFirst.includes(id))).toEqual(existedThroughout.filter((id) => seen.includes(id)))
    for (const id of newestFirst.filter((candidate) => !deleted.has(candidate))) expect(seen).toContain(id)
    for (const id of seen) expect(newestFirst).toContain(id)
    for (const id of deletedBeforeServed) expect(seen).not.toContain(id)
    expect(deletedBeforeServed.size).toBeGreaterThan(0)
    expect(pages).toBeGreaterThan(1)
  })

  it('walks the whole list in order, page by page, with any limit', async () => {
    for (const limit of [1, 2, 3, 5]) {
      const seen: string[] = []
      let token = ''
      do {
        const body = await page(withToken(`${COUNTERPARTIES}?limit=${limit}`, token), shared.org)
        expect(body.items.length).toBeLessThanOrEqual(limit)
        seen.push(...body.items.map((item) => item.id))
        token = body.nextToken
      } while (token !== '')
      expect(seen).toEqual(shared.newestFirst)
    }
  })

  it('lets the limit change between pages (it is not a filter)', async () => {
    const first = await page(`${COUNTERPARTIES}?limit=1`, shared.org)
    const rest = await page(withToken(`${COUNTERPARTIES}?limit=10`, first.nextToken), shared.org)
    expect([...first.items, ...rest.items].map((item) => item.id)).toEqual(shared.newestFirst)
  })
})

describe('tokens carry a fingerprint of the list and its filters', () => {
  let filteredToken: string
  let plainToken: string
  beforeAll(async () => {
    filteredToken = (await page(`${COUNTERPARTIES}?query=Party&limit=1`, shared.org)).nextToken
    plainToken = (await page(`${COUNTERPARTIES}?limit=1`, shared.org)).nextToken
    expect(filteredToken).not.toBe('')
    expect(plainToken).not.toBe('')
  })

  it('accepts the token with the same filters', async () => {
    const body = await page(withToken(`${COUNTERPARTIES}?query=Party&limit=1`, filteredToken), shared.org)
    expect(body.items).toHaveLength(1)
  })

  const mismatches: [string, () => string][] = [
    ['a filtered token without the filter', () => withToken(COUNTERPARTIES, filteredToken)],
    ['a filtered token with another filter value', () => withToken(`${COUNTERPARTIES}?query=Other`, filteredToken)],
    ['an unfiltered token with a filter', () => withToken(`${COUNTERPARTIES}?query=Party`, plainToken)],
    ['a counterparty token on the external-accounts list', () => withToken('/payments/v2/external-accounts', plainToken)],
    ['a counterparty token on the accounts list', () => withToken('/financial-data/v2/accounts', plainToken)],
    ['a counterparty token on the entities list', () => withToken('/financial-data/v2/entities', plainToken)],
    ['a counterparty token on the pending-transactions list', () => withToken('/financial-data/v2/pending-transactions', plainToken)],
    ['a counterparty token on the audit log', () => withToken('/iam/v2beta/audit-log-entries', plainToken)],
  ]
  for (const [name, url] of mismatches) {
    it(`refuses ${name} with 400 invalid_token naming token`, async () => {
      const body = expectError(await t.request({ method: 'GET', url: url(), as: shared.org }), 400, 'invalid_token')
      expect(body.details).toEqual([{ code: 'invalid_token', field: 'token', error: expect.any(String) }])
    })
  }
})

describe('garbage tokens are a 400, never a 500', () => {
  const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
  /** The fingerprint the counterparty list puts in its tokens, so forged tokens get past that check. */
  const fingerprint = createHash('sha256').update('counterparties\n{}').digest('base64url').slice(0, 16)
  const garbage: [string, string][] = [
    ['plain text', 'abc'],
    ['symbols', '!!!***'],
    ['base64 of non-JSON', encode('not json')],
    ['base64 of null', encode(null)],
    ['base64 of a number', encode(42)],
    ['base64 of an array', encode([1, 2])],
    ['base64 of an empty object', encode({})],
    ['a token without values', encode({ f: fingerprint, v: [] })],
    ['a token with too many values', encode({ f: fingerprint, v: ['a', 'b'] })],
    ['a token with an object value', encode({ f: fingerprint, v: [{}] })],
    ['a token with a null value', encode({ f: fingerprint, v: [null] })],
    ['a token with a wrong fingerprint', encode({ f: 'x', v: ['0190c0de-0000-7000-8000-000000000000'] })],
    ['a token over 2048 characters', 'a'.repeat(2049)],
  ]
  for (const [name, token] of garbage) {
    it(`${name} → 400`, async () => {
      const response = await t.request({ method: 'GET', url: withToken(COUNTERPARTIES, token) })
      expectError(response, 400, response.json().code === 'invalid_token' ? 'invalid_token' : 'invalid_request')
      expect(response.json().details?.[0]?.field).toBe('token')
    })
  }

  const forged: [string, unknown[]][] = [
    ['a NUL character', ['\u0000']],
    ['a fraction', [1.5]],
    ['a number beyond SQL integers', [1e300]],
  ]
  for (const [name, values] of forged) {
    it(`a forged token with ${name} → 400 invalid_token, not a driver error`, async () => {
      const response = await t.request({ method: 'GET', url: withToken(COUNTERPARTIES, encode({ f: fingerprint, v: values })) })
      expectError(response, 400, 'invalid_token')
    })
  }

  it('a forged token whose number is out of the range of event sequences → 400 on the events list', async () => {
    const { id } = await createCounterparty(t)
    const events = `${COUNTERPARTIES}/${id}/events`
    const eventsFingerprint = createHash('sha256').update(`counterparties/${id}/events\n{}`).digest('base64url').slice(0, 16)
    for (const value of [2 ** 31, -(2 ** 31), 0.5]) {
      const response = await t.request({ method: 'GET', url: withToken(events, encode({ f: eventsFingerprint, v: [value] })) })
      expectError(response, 400, 'invalid_token')
    }
    const valid = await t.request({ method: 'GET', url: withToken(events, encode({ f: eventsFingerprint, v: [0] })) })
    expect(valid.statusCode).toBe(200)
    expect(valid.json().items).toHaveLength(1)
  })
})
