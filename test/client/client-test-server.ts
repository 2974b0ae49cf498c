import { createKassaClient, type Fetch, type KassaClient, type paths, type RetryOptions } from '../../packages/client/src/index.js'
import { counterpartyBody } from '../support/fixtures.js'
import { basicAuth, type TestApp } from '../support/test-app.js'
import { startWebhookTestApp } from '../webhooks/webhook-helpers.js'

/** A Kassa server listening on 127.0.0.1 for the client's tests, with webhooks allowed to loopback. */
export interface ClientTestServer {
  t: TestApp
  baseUrl: string
  /** A client with the owner's key; every attempt it sends is recorded in `attempts`. */
  client(options?: { retry?: RetryOptions | false; baseUrl?: string }): { kassa: KassaClient; attempts: Attempt[] }
  /**
   * Sends `POST /v1/idempotency-test?sleep=…` with `key` and resolves once the server holds the key (its row
   * is in the database), so that a request with the same key meanwhile gets a 425; `answer` is the first
   * request's own response.
   */
  holdKey(key: string, sleepMilliseconds: number): Promise<{ answer: Promise<Response> }>
  close(): Promise<void>
}

/** One request the client sent and what came of it. */
export interface Attempt {
  method: string
  url: string
  idempotencyKey: string | null
  at: number
  outcome: number | 'network error'
  /** The answer's `request-id` header. */
  requestId?: string | null
}

/** The real fetch, recording each attempt: what the retry layer sent, as the server saw it. */
export function recordingFetch(attempts: Attempt[]): Fetch {
  return async (request) => {
    const attempt: Attempt = {
      method: request.method,
      url: request.url,
      idempotencyKey: request.headers.get('Idempotency-Key'),
      at: Date.now(),
      outcome: 'network error',
    }
    attempts.push(attempt)
    const response = await fetch(request)
    attempt.outcome = response.status
    attempt.requestId = response.headers.get('request-id')
    return response
  }
}

export async function startClientTestServer(overrides: Parameters<typeof startWebhookTestApp>[0] = {}): Promise<ClientTestServer> {
  const t = await startWebhookTestApp(overrides)
  const baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 })
  return {
    t,
    baseUrl,
    client({ retry, baseUrl: url = baseUrl } = {}) {
      const attempts: Attempt[] = []
      const kassa = createKassaClient({
        baseUrl: url,
        accessKey: t.owner.accessKey,
        secret: t.owner.secret,
        fetch: recordingFetch(attempts),
        ...(retry === undefined ? {} : { retry }),
      })
      return { kassa, attempts }
    },
    async holdKey(key, sleepMilliseconds) {
      const answer = fetch(`${baseUrl}/v1/idempotency-test?sleep=${sleepMilliseconds}`, {
        method: 'POST',
        headers: { authorization: basicAuth(t.owner), 'idempotency-key': key },
      })
      const held = () => t.db.database.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).executeTakeFirst()
      while (!(await held())) await new Promise((resolve) => setTimeout(resolve, 20))
      return { answer }
    },
    close: () => t.close(),
  }
}

type NewCounterparty = NonNullable<paths['/payments/v2/counterparties']['post']['requestBody']>['content']['application/json']

/** The fixtures' counterparty, typed as the client's create body. */
export function newCounterparty(overrides: Partial<NewCounterparty> = {}): NewCounterparty {
  return counterpartyBody(overrides) as NewCounterparty
}

/**
 * The body of `POST /v1/idempotency-test`. The document declares it as the `default` response, which
 * openapi-fetch counts among the errors, so `data` is typed `never` there.
 */
export function echoed(result: { data: unknown }): { idempotencyKey: string | null; uuid: string } {
  return result.data as { idempotencyKey: string | null; uuid: string }
}
