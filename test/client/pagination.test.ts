import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKassaClient, paginate, type KassaClient } from '../../packages/client/src/index.js'
import type { Credentials } from '../../src/iam/index.js'
import { IBANS } from '../support/fixtures.js'
import { newCounterparty, recordingFetch, startClientTestServer, type Attempt, type ClientTestServer } from './client-test-server.js'

/** paginate against a real server: every item of every page, the filters sent unchanged with each token. */
let server: ClientTestServer
let organization: Credentials
let kassa: KassaClient
const attempts: Attempt[] = []
const MATCHING = 7
const OTHERS = 4

beforeAll(async () => {
  server = await startClientTestServer()
  organization = await server.t.newOrganization('Many counterparties GmbH')
  kassa = createKassaClient({ baseUrl: server.baseUrl, ...organization, fetch: recordingFetch(attempts) })
  for (let index = 0; index < MATCHING; index += 1) {
    await kassa.POST('/payments/v2/counterparties', { body: newCounterparty({ legalName: `Nordwind ${index} GmbH`, alias: `nordwind-${index}` }) })
  }
  for (let index = 0; index < OTHERS; index += 1) {
    const accounts = [{ market: 'NL', identifiers: [{ market: 'NL', type: 'IBAN' as const, number: IBANS.nl }] }]
    await kassa.POST('/payments/v2/counterparties', { body: newCounterparty({ legalName: `Zuidkaap ${index} BV`, alias: `zuidkaap-${index}`, accounts }) })
  }
})
afterAll(() => server?.close())

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = []
  for await (const item of items) all.push(item)
  return all
}

describe('paginate', () => {
  it('yields every item over several pages, equal to the API’s whole list', async () => {
    const { data: whole } = await kassa.GET('/payments/v2/counterparties', { params: { query: { limit: 500 } } })
    expect(whole.items).toHaveLength(MATCHING + OTHERS)
    expect(whole.nextToken).toBe('')
    attempts.length = 0
    const paged = await collect(paginate(kassa, '/payments/v2/counterparties', { query: { limit: 3 } }))
    expect(paged.map((item) => item.id)).toEqual(whole.items.map((item) => item.id))
    // 11 items, 3 a page: 4 pages, the last one's nextToken empty.
    expect(attempts).toHaveLength(4)
    const tokens = attempts.map((attempt) => new URL(attempt.url).searchParams.get('token'))
    expect(tokens[0]).toBeNull()
    expect(tokens.slice(1).every((token) => typeof token === 'string' && token.length > 0)).toBe(true)
  })

  it('sends the filters unchanged with every page (spec: Pagination rules 4)', async () => {
    attempts.length = 0
    const matching = await collect(paginate(kassa, '/payments/v2/counterparties', { query: { limit: 2, query: 'Nordwind' } }))
    expect(matching.map((item) => item.legalName).sort()).toEqual(Array.from({ length: MATCHING }, (_, index) => `Nordwind ${index} GmbH`))
    expect(attempts).toHaveLength(4)
    for (const attempt of attempts) {
      const query = new URL(attempt.url).searchParams
      expect([query.get('limit'), query.get('query')]).toEqual(['2', 'Nordwind'])
    }
  })

  it('follows path parameters, and ends at once on an empty list', async () => {
    const { data: created } = await kassa.POST('/payments/v2/counterparties', { body: newCounterparty({ alias: 'with-history' }) })
    await kassa.PATCH('/payments/v2/counterparties/{id}', {
      params: { path: { id: created.id }, header: { 'if-match': created.etag } },
      body: [{ op: 'replace', path: '/alias', value: 'renamed' }],
      headers: { 'Content-Type': 'application/json-patch+json' },
    })
    const events = await collect(paginate(kassa, '/payments/v2/counterparties/{id}/events', { path: { id: created.id }, query: { limit: 1 } }))
    expect(events.map((event) => event.type)).toEqual(['CREATED', 'UPDATED'])
    const other = createKassaClient({ baseUrl: server.baseUrl, ...(await server.t.newOrganization('Empty GmbH')) })
    expect(await collect(paginate(other, '/payments/v2/credit-transfers'))).toEqual([])
  })
})
