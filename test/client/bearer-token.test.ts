import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKassaClient, KassaApiError, TOKEN_PATH, type Fetch, type KassaClientOptions } from '../../packages/client/src/index.js'
import { newCounterparty, startClientTestServer, type ClientTestServer } from './client-test-server.js'

/**
 * Bearer tokens (issue 10, now that OAuth2 exists): the key and secret exchanged for tokens the client keeps
 * and renews, or a token got elsewhere. Against a real server whose tokens live 2 seconds, so renewal is seen.
 */
const LIFETIME_SECONDS = 2
const ACCOUNTS = '/financial-data/v2/accounts'

let server: ClientTestServer
beforeAll(async () => {
  server = await startClientTestServer({ accessTokenLifetimeSeconds: LIFETIME_SECONDS })
})
afterAll(() => server?.close())

/** One request as the server got it: its path, its Authorization and the answer's status. */
interface Sent {
  path: string
  authorization: string | null
  status: number
}

/** The real fetch, recording what was sent; `afterToken` runs once a token answer arrived. */
function recorder(afterToken: () => Promise<void> = async () => undefined): { fetch: Fetch; sent: Sent[] } {
  const sent: Sent[] = []
  const fetch: Fetch = async (request) => {
    const entry: Sent = { path: new URL(request.url).pathname, authorization: request.headers.get('Authorization'), status: 0 }
    sent.push(entry)
    const response = await globalThis.fetch(request)
    entry.status = response.status
    if (entry.path === TOKEN_PATH && response.ok) await afterToken()
    return response
  }
  return { fetch, sent }
}

function oauth2Client(fetch: Fetch, secret = server.t.owner.secret) {
  return createKassaClient({ baseUrl: server.baseUrl, accessKey: server.t.owner.accessKey, secret, authentication: 'oauth2', fetch })
}

const tokenRequests = (sent: Sent[]) => sent.filter((entry) => entry.path === TOKEN_PATH)
const apiRequests = (sent: Sent[]) => sent.filter((entry) => entry.path !== TOKEN_PATH)
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

describe("authentication: 'oauth2' (client credentials)", () => {
  it('asks for a token with the key by Basic, sends it as Bearer, and keeps it for the next calls', async () => {
    const { fetch, sent } = recorder()
    const kassa = oauth2Client(fetch)
    const { data: first } = await kassa.GET(ACCOUNTS)
    const { data: created } = await kassa.POST('/payments/v2/counterparties', { body: newCounterparty() })
    await Promise.all([kassa.GET(ACCOUNTS), kassa.GET(ACCOUNTS), kassa.GET(ACCOUNTS)])
    expect(first.items.length).toBeGreaterThan(0)
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/)

    expect(tokenRequests(sent)).toEqual([{ path: TOKEN_PATH, authorization: expect.stringMatching(/^Basic /), status: 200 }])
    const api = apiRequests(sent)
    expect(api).toHaveLength(5)
    const authorizations = new Set(api.map((entry) => entry.authorization))
    expect([...authorizations]).toEqual([expect.stringMatching(/^Bearer kassa_at_/)])
    expect(api.every((entry) => entry.status < 300)).toBe(true)
  })

  it('renews the token before it expires, without a refused request', async () => {
    const { fetch, sent } = recorder()
    const kassa = oauth2Client(fetch)
    await kassa.GET(ACCOUNTS)
    // Renewed halfway through a 2-second life: past 1 second, the next call takes a new token.
    await sleep((LIFETIME_SECONDS / 2) * 1000 + 100)
    await kassa.GET(ACCOUNTS)
    expect(tokenRequests(sent)).toHaveLength(2)
    const api = apiRequests(sent)
    expect(api.map((entry) => entry.status)).toEqual([200, 200])
    expect(api[0]!.authorization).not.toBe(api[1]!.authorization)
  })

  it('on a 401 invalid_token asks for a new token and sends the request once more, with its Idempotency-Key', async () => {
    // The server forgets the first token it issues (as when it was purged): the first use is refused.
    let forget = true
    const { fetch, sent } = recorder(async () => {
      if (!forget) return
      forget = false
      await server.t.db.database.db.deleteFrom('oauth2_access_tokens').execute()
    })
    const keys: Array<string | null> = []
    const kassa = oauth2Client(async (request) => {
      if (request.method === 'POST' && !request.url.endsWith(TOKEN_PATH)) keys.push(request.headers.get('Idempotency-Key'))
      return fetch(request)
    })
    const { data } = await kassa.POST('/payments/v2/counterparties', { body: newCounterparty({ externalId: 'bearer-renewed' }) })
    expect(data.externalId).toBe('bearer-renewed')
    expect(tokenRequests(sent).map((entry) => entry.status)).toEqual([200, 200])
    const api = apiRequests(sent)
    expect(api.map((entry) => entry.status)).toEqual([401, 201])
    expect(api[0]!.authorization).not.toBe(api[1]!.authorization)
    expect(keys).toHaveLength(2)
    expect(keys[0]).toBe(keys[1])
  })

  it('renews only once: a second refusal is thrown', async () => {
    const { fetch, sent } = recorder(async () => {
      await server.t.db.database.db.deleteFrom('oauth2_access_tokens').execute()
    })
    const error = await oauth2Client(fetch)
      .GET(ACCOUNTS)
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(KassaApiError)
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' })
    expect(tokenRequests(sent)).toHaveLength(2)
    expect(apiRequests(sent).map((entry) => entry.status)).toEqual([401, 401])
  })

  it('a wrong secret is the token endpoint’s invalid_client, thrown as KassaApiError, and no API request is sent', async () => {
    const { fetch, sent } = recorder()
    const error = await oauth2Client(fetch, 'not-the-secret')
      .GET(ACCOUNTS)
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(KassaApiError)
    expect(error).toMatchObject({ status: 401, code: 'invalid_client', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    expect(sent.map((entry) => entry.path)).toEqual([TOKEN_PATH])
  })
})

describe('bearerToken: a token got elsewhere', () => {
  async function tokenFromServer(): Promise<string> {
    const { t, baseUrl } = server
    const response = await fetch(`${baseUrl}${TOKEN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: t.owner.accessKey, client_secret: t.owner.secret }),
    })
    expect(response.status).toBe(200)
    return ((await response.json()) as { access_token: string }).access_token
  }

  it('sends the token given as Bearer', async () => {
    const token = await tokenFromServer()
    const { fetch, sent } = recorder()
    const { data } = await createKassaClient({ baseUrl: server.baseUrl, bearerToken: token, fetch }).GET(ACCOUNTS)
    expect(data.items.length).toBeGreaterThan(0)
    expect(sent).toEqual([{ path: ACCOUNTS, authorization: `Bearer ${token}`, status: 200 }])
  })

  it('asks a function for the current token before every request', async () => {
    const tokens = [await tokenFromServer(), await tokenFromServer()]
    let calls = 0
    const { fetch, sent } = recorder()
    const options: KassaClientOptions = { baseUrl: server.baseUrl, bearerToken: async () => tokens[calls++ % 2]!, fetch }
    const kassa = createKassaClient(options)
    await kassa.GET(ACCOUNTS)
    await kassa.GET(ACCOUNTS)
    expect(sent.map((entry) => entry.authorization)).toEqual(tokens.map((token) => `Bearer ${token}`))
  })

  it('a token the server does not accept is a 401 KassaApiError, with nothing to renew it by', async () => {
    const { fetch, sent } = recorder()
    const kassa = createKassaClient({ baseUrl: server.baseUrl, bearerToken: 'kassa_at_not-a-token', fetch })
    const error = await kassa.GET(ACCOUNTS).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'KassaApiError', status: 401, code: 'unauthorized' })
    expect(sent).toHaveLength(1)
  })
})
