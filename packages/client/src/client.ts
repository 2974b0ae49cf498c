import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch'
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers'
import { basicAuthorization, clientCredentialsToken, givenToken, withBearerToken, type BearerToken, type TokenSource } from './authentication.js'
import { throwKassaApiErrors } from './errors.js'
import type { paths } from './generated/openapi.js'
import { addIdempotencyKey } from './idempotency-key.js'
import { withRetries, type Fetch, type RetryOptions } from './retry.js'

interface CommonOptions {
  /** The server's address, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string
  /** Retries of network errors, 425, 429 and 503: on by default; `false` sends each request once. */
  retry?: RetryOptions | false
}

/**
 * How the client authenticates (spec: Authentication): an access key and its secret, sent by HTTP Basic or
 * (`authentication: 'oauth2'`) exchanged for bearer tokens the client keeps and renews; a bearer token got
 * elsewhere (or a function giving the current one); or a `fetch` of your own that authenticates. A `fetch` may
 * be given with a key or a token as well: the client's Authorization is set on the requests it receives.
 */
export type KassaClientOptions = CommonOptions &
  (
    | {
        accessKey: string
        secret: string
        /** 'basic' (the default): every request carries the key and secret; 'oauth2': bearer tokens from POST /iam/v2beta/oauth2/token. */
        authentication?: 'basic' | 'oauth2'
        bearerToken?: undefined
        fetch?: Fetch
      }
    | { bearerToken: BearerToken; accessKey?: undefined; secret?: undefined; authentication?: undefined; fetch?: Fetch }
    | { fetch: Fetch; accessKey?: undefined; secret?: undefined; authentication?: undefined; bearerToken?: undefined }
  )

/** openapi-fetch's own init-argument rule (optional when nothing in it is required); it does not export it. */
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }]

/** The success half of openapi-fetch's `{ data } | { error }`: Kassa's client throws instead of answering with the other. */
export type Succeeded<Response> = Extract<Response, { data: unknown }>

/** The operation at `Path` and `Method` (openapi-fetch's constraint, which optional methods of a concrete `paths` do not meet as written). */
type Operation<Path extends keyof paths, Method extends HttpMethod> = paths[Path][Method] extends infer Found extends Record<string | number, any> ? Found : never

type KassaMethod<Method extends HttpMethod> = <Path extends PathsWithMethod<paths, Method>, Init extends MaybeOptionalInit<paths[Path], Method>>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<Succeeded<FetchResponse<Operation<Path, Method>, Init, MediaType>>>

/**
 * The openapi-fetch client for Kassa's paths. Every call resolves to `{ data, response }` for a 2xx
 * answer and throws a KassaApiError for any other (after the retries allowed).
 */
export interface KassaClient extends Pick<Client<paths>, 'use' | 'eject'> {
  GET: KassaMethod<'get'>
  POST: KassaMethod<'post'>
  PUT: KassaMethod<'put'>
  PATCH: KassaMethod<'patch'>
  DELETE: KassaMethod<'delete'>
}

/**
 * A client for the Kassa server at `baseUrl`, with Kassa's rules built in: an Idempotency-Key on every
 * POST and PATCH (reused by that call's retries), bounded retries with jittered backoff, and every
 * non-2xx answer thrown as a KassaApiError.
 */
export function createKassaClient(options: KassaClientOptions): KassaClient {
  // Resolved per call, not captured: a fetch patched or stubbed after the client is made still applies.
  const fetch: Fetch = options.fetch ?? ((request) => globalThis.fetch(request))
  const retrying = (next: Fetch): Fetch => (options.retry === false ? next : withRetries(next, options.retry))
  const tokens = tokenSource(options, retrying(fetch))
  const basic = options.accessKey !== undefined && tokens === undefined
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: retrying(tokens ? withBearerToken(fetch, tokens) : fetch),
    ...(basic ? { headers: { Authorization: basicAuthorization(options.accessKey, options.secret) } } : {}),
  })
  client.use(addIdempotencyKey, throwKassaApiErrors)
  // The same object openapi-fetch made; only its answer types are narrowed, which throwKassaApiErrors guarantees.
  return client as unknown as KassaClient
}

/** The bearer tokens the options call for, if any; `fetch` sends the token requests. */
function tokenSource(options: KassaClientOptions, fetch: Fetch): TokenSource | undefined {
  if (options.bearerToken !== undefined) return givenToken(options.bearerToken)
  if (options.accessKey === undefined || options.authentication !== 'oauth2') return undefined
  return clientCredentialsToken({ baseUrl: options.baseUrl, accessKey: options.accessKey, secret: options.secret, fetch })
}
