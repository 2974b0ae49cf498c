import { readFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatOpenApiDocument, generateOpenApiDocument, OPENAPI_PATH } from '../../scripts/openapi-document.js'
import { counterpartyBody, externalAccountBody } from '../support/fixtures.js'
import { startTestApp, type RequestOptions, type TestApp } from '../support/test-app.js'

interface Response {
  description?: string
  $ref?: string
  content?: Record<string, { schema?: { $ref?: string } }>
  headers?: Record<string, unknown>
}
interface Operation {
  security?: Array<Record<string, string[]>>
  requestBody?: unknown
  parameters?: Array<{ name?: string; in?: string; $ref?: string }>
  responses: Record<string, Response>
}
interface OpenApiDocument {
  openapi: string
  security?: Array<Record<string, string[]>>
  components: {
    schemas: Record<string, unknown>
    securitySchemes: Record<string, { type: string; scheme?: string }>
  }
  paths: Record<string, Record<string, Operation>>
}

const ERROR_REF = '#/components/schemas/ErrorEnvelope'
const METHODS = ['get', 'post', 'put', 'patch', 'delete']
/**
 * Unauthenticated operations: the only ones allowed to opt out of the API's authentication (sign-in and the
 * OAuth2 token endpoint make the credentials; the latter takes client credentials of its own).
 */
const PUBLIC_OPERATIONS = ['GET /healthz', 'GET /readyz', 'POST /iam/v2/session', 'POST /iam/v2beta/oauth2/token', 'POST /iam/v2/oauth2/token']
/** The token endpoint's errors (RFC 6749 §5.2): the envelope, and `error` and `error_description` beside it. */
const OAUTH2_ERRORS = ['POST /iam/v2beta/oauth2/token', 'POST /iam/v2/oauth2/token'].flatMap((route) => [`${route} 400`, `${route} 401`])

let t: TestApp
let document: OpenApiDocument
let generatedText: string

beforeAll(async () => {
  t = await startTestApp()
  const generated = await generateOpenApiDocument()
  generatedText = formatOpenApiDocument(generated)
  document = generated as unknown as OpenApiDocument
})
afterAll(() => t?.close())

function operations(): Array<{ path: string; method: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  )
}

function isPublic(operation: Operation): boolean {
  return Array.isArray(operation.security) && operation.security.length === 0
}

/**
 * Fastify's printed path → OpenAPI's: `/a/:id(^.+)::approve` → `/a/{id}:approve`. A parameter follows a
 * slash; `::` is an escaped literal colon, and the tree prints a literal colon that starts a child segment
 * (`/v1/sandbox/clock` + `:advance`) as a single one.
 */
function fastifyToOpenApiPath(path: string): string {
  return path
    .replace(/::/g, '\u0000')
    .replace(/\/:([A-Za-z0-9_]+)(?:\((?:[^()]|\([^()]*\))*\))?/g, '/{$1}')
    .replace(/\u0000/g, ':')
}

/**
 * Every route the app registered, read from Fastify's route tree (`printRoutes`), as
 * `METHOD /openapi/{style}` pairs. HEAD routes are Fastify's automatic twins of GET routes.
 */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = []
  const routes: string[] = []
  for (const line of tree.split('\n')) {
    const match = /^([│├└─\s]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match) continue
    // Each level of the tree is indented by four characters ("├── ", "│   └── ", …).
    const depth = match[1]!.length / 4 - 1
    stack.length = Math.max(depth, 0)
    stack.push(match[2]!)
    const path = fastifyToOpenApiPath(stack.join(''))
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push(`${method} ${path}`)
    }
  }
  return routes.sort()
}

/** What changed between the committed and the generated document, one line per operation or component. */
function differences(committedText: string, generatedText: string): string {
  let committed: OpenApiDocument
  try {
    committed = JSON.parse(committedText) as OpenApiDocument
  } catch {
    return '  (the committed file is missing or not JSON)'
  }
  const generated = JSON.parse(generatedText) as OpenApiDocument
  const entries = (doc: OpenApiDocument) => {
    const map = new Map<string, string>()
    for (const [path, byMethod] of Object.entries(doc.paths ?? {})) {
      for (const [method, operation] of Object.entries(byMethod)) map.set(`${method.toUpperCase()} ${path}`, JSON.stringify(operation))
    }
    for (const [kind, members] of Object.entries((doc.components ?? {}) as Record<string, Record<string, unknown>>)) {
      for (const [name, value] of Object.entries(members)) map.set(`components.${kind}.${name}`, JSON.stringify(value))
    }
    const { paths: _paths, components: _components, ...rest } = doc as unknown as Record<string, unknown>
    for (const [key, value] of Object.entries(rest)) map.set(key, JSON.stringify(value))
    return map
  }
  const before = entries(committed)
  const after = entries(generated)
  const lines: string[] = []
  for (const [key, value] of after) {
    if (!before.has(key)) lines.push(`  added:   ${key}`)
    else if (before.get(key) !== value) lines.push(`  changed: ${key}`)
  }
  for (const key of before.keys()) if (!after.has(key)) lines.push(`  removed: ${key}`)
  return lines.length > 0 ? lines.join('\n') : '  (only formatting or key order differs)'
}

describe('docs/openapi.json', () => {
  it('is what the app generates now (else run `npm run openapi`)', () => {
    let committed: string
    try {
      committed = readFileSync(OPENAPI_PATH, 'utf8')
    } catch {
      committed = ''
    }
    if (committed !== generatedText) {
      throw new Error(
        `docs/openapi.json is stale: run \`npm run openapi\` and commit docs/openapi.json.\n${differences(committed, generatedText)}`,
      )
    }
  })

  it('is what GET /openapi.json serves, without authentication', async () => {
    const response = await t.request({ method: 'GET', url: '/openapi.json', as: null })
    expect(response.statusCode).toBe(200)
    expect(response.headers['request-id']).toBeTruthy()
    expect(response.json()).toEqual(JSON.parse(generatedText))
  })
})

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    expect(document.openapi).toBe('3.1.0')
    expect(() => validator.resolveRefs()).not.toThrow()
  })

  it('documents every route the app serves, and nothing else', () => {
    const documented = operations()
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`)
      .sort()
    const served = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter(
      (route) => route !== 'GET /openapi.json' && !route.startsWith('GET /dashboard'),
    )
    expect(served.length).toBeGreaterThanOrEqual(10)
    expect(documented).toEqual(served)
  })

  it('requires HTTP Basic or a bearer token everywhere but the health probes, sign-in and the token endpoint', () => {
    expect(document.components.securitySchemes).toEqual({
      basicAuth: { type: 'http', scheme: 'basic', description: expect.any(String) },
      bearerAuth: { type: 'http', scheme: 'bearer', description: expect.stringContaining('/iam/v2beta/oauth2/token') },
    })
    expect(document.security).toEqual([{ basicAuth: [] }, { bearerAuth: [] }])
    for (const { path, method, operation } of operations()) {
      const route = `${method.toUpperCase()} ${path}`
      if (PUBLIC_OPERATIONS.includes(route)) expect(operation.security, route).toEqual([])
      else expect(isPublic(operation), `${route} must not opt out of authentication`).toBe(false)
    }
  })

  it('gives every error response the ErrorEnvelope schema, with request-id', () => {
    expect(document.components.schemas.ErrorEnvelope).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['status', 'code', 'message', 'requestId']),
    })
    for (const { path, method, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.headers?.['request-id'], `${method} ${path} ${status} documents request-id`).toBeDefined()
        if (!/^[45]\d\d$/.test(status)) continue
        const schema = response.content?.['application/json']?.schema as { $ref?: string; allOf?: Array<{ $ref?: string; required?: string[] }> }
        if (OAUTH2_ERRORS.includes(`${method.toUpperCase()} ${path} ${status}`)) {
          expect(schema.allOf?.[0], `${method} ${path} ${status}`).toEqual({ $ref: ERROR_REF })
          expect(schema.allOf?.[1]?.required, `${method} ${path} ${status}`).toEqual(['error', 'error_description'])
        } else {
          expect(schema, `${method} ${path} ${status}`).toEqual({ $ref: ERROR_REF })
        }
        expect(response.description, `${method} ${path} ${status}`).toBeTruthy()
      }
    }
  })

  it('documents the errors each kind of route can answer with', () => {
    for (const { path, method, operation } of operations()) {
      if (isPublic(operation)) continue
      const statuses = Object.keys(operation.responses)
      const route = `${method.toUpperCase()} ${path}`
      // The API guard: authentication, rate limit, maintenance, and the 500 that leaks nothing.
      expect(statuses, route).toEqual(expect.arrayContaining(['401', '429', '500', '503']))
      expect(operation.responses['401']?.headers?.['WWW-Authenticate'], route).toBeDefined()
      expect(operation.responses['429']?.headers?.['Retry-After'], route).toBeDefined()
      // Bad input of any kind is a 400 (an invalid Idempotency-Key header included).
      if ((operation.parameters ?? []).length > 0 || operation.requestBody) expect(statuses, route).toContain('400')
      // Every resource is permission-checked, except the idempotency test endpoint any key may call.
      if (path !== '/v1/idempotency-test') expect(statuses, route).toContain('403')
      if (path.includes('{id}')) expect(statuses, route).toContain('404')
      if (method === 'patch') expect(statuses, route).toEqual(expect.arrayContaining(['404', '412', '428']))
      // A resource that can be deleted answers 410 Gone afterwards on every method of its path.
      const deletable = document.paths[path]?.delete !== undefined
      if (deletable && method !== 'post') expect(statuses, route).toContain('410')
      if (method === 'post' || method === 'patch') {
        expect(statuses, route).toEqual(expect.arrayContaining(['422', '425']))
        expect(operation.responses['425']?.headers?.['Retry-After'], route).toBeDefined()
        const names = (operation.parameters ?? []).map((p) => p.name ?? p.$ref)
        expect(names, route).toContain('#/components/parameters/IdempotencyKey')
      }
      const success = statuses.filter((status) => /^2\d\d$/.test(status) || status === 'default')
      expect(success.length, `${route} documents its success response`).toBeGreaterThan(0)
      for (const status of success) {
        expect(operation.responses[status]!.headers?.['RateLimit-Remaining'], `${route} ${status}`).toBeDefined()
      }
    }
  })

  it('documents list endpoints with the list envelope and the limit/token parameters', () => {
    for (const { path, method, operation } of operations()) {
      if (method !== 'get' || isPublic(operation)) continue
      const schema = operation.responses['200']?.content?.['application/json']?.schema as
        | { properties?: Record<string, unknown>; required?: string[] }
        | undefined
      if (!schema?.properties?.items) continue
      expect(schema.required, path).toEqual(expect.arrayContaining(['items', 'nextToken', 'token', 'limit']))
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
      expect(query, path).toEqual(expect.arrayContaining(['limit', 'token']))
    }
  })
})

describe('real responses match the documented schemas', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  let compiled = false
  /** The document as one schema, so `#/components/schemas/…` references resolve inside it. */
  function schemaAt(pointer: string) {
    if (!compiled) {
      ajv.addSchema({ ...document, $id: 'kassa-openapi' } as object)
      compiled = true
    }
    return ajv.getSchema(`kassa-openapi#/${pointer}`)
  }

  /** Validates a response body against `paths[template][method].responses[status]` of the document. */
  async function expectDocumented(
    template: string,
    request: RequestOptions,
    status: number,
  ): Promise<Record<string, unknown>> {
    const response = await t.request(request)
    expect(response.statusCode, response.body).toBe(status)
    expect(response.headers['request-id']).toBeTruthy()
    const method = request.method.toLowerCase()
    const responses = document.paths[template]?.[method]?.responses
    expect(responses, `${method} ${template} is documented`).toBeDefined()
    const key = String(status) in responses! ? String(status) : 'default'
    expect(responses![key], `${method} ${template} documents ${status}`).toBeDefined()
    if (status === 204) return {}
    const pointer = ['paths', template, method, 'responses', key, 'content', 'application/json', 'schema']
      .map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/')
    const validate = schemaAt(pointer)
    expect(validate, pointer).toBeDefined()
    const body = response.json()
    const valid = validate!(body)
    expect(validate!.errors ?? [], JSON.stringify(body)).toEqual([])
    expect(valid).toBe(true)
    return body
  }

  it('the schemas really constrain: an error body without requestId does not match ErrorEnvelope', () => {
    const validate = schemaAt('components/schemas/ErrorEnvelope')!
    expect(validate({ status: 404, code: 'not_found', message: 'Resource not found', requestId: 'r' })).toBe(true)
    expect(validate({ status: 404, code: 'not_found', message: 'Resource not found' })).toBe(false)
  })

  it('a created counterparty, read back by id and by externalId, updated, and deleted', async () => {
    const created = await expectDocumented(
      '/payments/v2/counterparties',
      {
        method: 'POST',
        url: '/payments/v2/counterparties',
        body: counterpartyBody({ externalId: 'openapi-1' }),
        headers: { 'idempotency-key': 'openapi-create-1' },
      },
      201,
    )
    const id = String(created.id)
    await expectDocumented('/payments/v2/counterparties/{id}', { method: 'GET', url: `/payments/v2/counterparties/${id}` }, 200)
    await expectDocumented(
      '/payments/v2/counterparties/{id}',
      { method: 'GET', url: '/payments/v2/counterparties/external:openapi-1' },
      200,
    )
    const patched = await expectDocumented(
      '/payments/v2/counterparties/{id}',
      {
        method: 'PATCH',
        url: `/payments/v2/counterparties/${id}`,
        body: [{ op: 'replace', path: '/alias', value: 'renamed' }],
        headers: { 'if-match': String(created.etag), 'content-type': 'application/json-patch+json' },
      },
      200,
    )
    await expectDocumented(
      '/payments/v2/counterparties/{id}/events',
      { method: 'GET', url: `/payments/v2/counterparties/${id}/events` },
      200,
    )
    await expectDocumented(
      '/payments/v2/counterparties/{id}',
      { method: 'DELETE', url: `/payments/v2/counterparties/${id}`, headers: { 'if-match': String(patched.etag) } },
      204,
    )
    await expectDocumented('/payments/v2/counterparties/{id}', { method: 'GET', url: `/payments/v2/counterparties/${id}` }, 410)
  })

  it('lists: counterparties, accounts and external accounts', async () => {
    await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })
    const counterparties = await expectDocumented(
      '/payments/v2/counterparties',
      { method: 'GET', url: '/payments/v2/counterparties?limit=1' },
      200,
    )
    expect((counterparties.items as unknown[]).length).toBe(1)
    const accounts = await expectDocumented('/financial-data/v2/accounts', { method: 'GET', url: '/financial-data/v2/accounts' }, 200)
    const first = (accounts.items as Array<{ id: string }>)[0]!
    await expectDocumented('/financial-data/v2/accounts/{id}', { method: 'GET', url: `/financial-data/v2/accounts/${first.id}` }, 200)
    const external = await expectDocumented(
      '/payments/v2/external-accounts',
      { method: 'GET', url: '/payments/v2/external-accounts' },
      200,
    )
    const account = (external.items as Array<{ id: string }>)[0]!
    await expectDocumented(
      '/payments/v2/external-accounts/{id}',
      { method: 'GET', url: `/payments/v2/external-accounts/${account.id}` },
      200,
    )
  })

  it('an external account added to a counterparty, then deleted', async () => {
    const counterparty = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody({ accounts: [] }) })).json()
    const added = await expectDocumented(
      '/payments/v2/external-accounts',
      { method: 'POST', url: '/payments/v2/external-accounts', body: externalAccountBody(counterparty.id, { externalId: 'openapi-acct' }) },
      201,
    )
    await expectDocumented(
      '/payments/v2/external-accounts',
      { method: 'POST', url: '/payments/v2/external-accounts', body: externalAccountBody(counterparty.id, { externalId: 'openapi-acct' }) },
      409,
    )
    await expectDocumented('/payments/v2/external-accounts/{id}', { method: 'DELETE', url: `/payments/v2/external-accounts/${added.id}` }, 428)
    await expectDocumented(
      '/payments/v2/external-accounts/{id}',
      { method: 'DELETE', url: '/payments/v2/external-accounts/external:openapi-acct', headers: { 'if-match': String(added.etag) } },
      204,
    )
    await expectDocumented('/payments/v2/external-accounts/{id}', { method: 'GET', url: `/payments/v2/external-accounts/${added.id}` }, 410)
  })

  it('errors: 400 with details, 401, 404, 412, 428, and the health probes', async () => {
    const invalid = await expectDocumented(
      '/payments/v2/counterparties',
      { method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody({ nickname: 'x' }) },
      400,
    )
    expect(invalid.details).toEqual([expect.objectContaining({ field: 'nickname' })])
    await expectDocumented('/payments/v2/counterparties', { method: 'GET', url: '/payments/v2/counterparties', as: null }, 401)
    await expectDocumented(
      '/payments/v2/counterparties/{id}',
      { method: 'GET', url: '/payments/v2/counterparties/00000000-0000-7000-8000-000000000000' },
      404,
    )
    const created = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json()
    const patch = [{ op: 'replace', path: '/alias', value: 'x' }]
    await expectDocumented(
      '/payments/v2/counterparties/{id}',
      { method: 'PATCH', url: `/payments/v2/counterparties/${created.id}`, body: patch },
      428,
    )
    await expectDocumented(
      '/payments/v2/counterparties/{id}',
      { method: 'PATCH', url: `/payments/v2/counterparties/${created.id}`, body: patch, headers: { 'if-match': 'version:9' } },
      412,
    )
    await expectDocumented('/payments/v2/counterparties/{id}', { method: 'DELETE', url: `/payments/v2/counterparties/${created.id}` }, 428)
    await expectDocumented('/healthz', { method: 'GET', url: '/healthz', as: null }, 200)
    await expectDocumented('/readyz', { method: 'GET', url: '/readyz', as: null }, 200)
    await expectDocumented('/healthz', { method: 'GET', url: '/healthz?verbose=1', as: null }, 400)
  })

  it('the OAuth2 token endpoint: a token, and its RFC 6749 errors in the envelope', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    const basic = `Basic ${Buffer.from(`${t.owner.accessKey}:${t.owner.secret}`).toString('base64')}`
    const request = (body: string, authorization = basic): RequestOptions => ({
      method: 'POST',
      url: '/iam/v2beta/oauth2/token',
      body,
      headers: { ...form, authorization },
      as: null,
    })
    const token = await expectDocumented('/iam/v2beta/oauth2/token', request('grant_type=client_credentials'), 200)
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 300 })
    await expectDocumented('/iam/v2/oauth2/token', { ...request('grant_type=client_credentials'), url: '/iam/v2/oauth2/token' }, 200)
    expect(await expectDocumented('/iam/v2beta/oauth2/token', request('grant_type=password'), 400)).toMatchObject({ error: 'unsupported_grant_type' })
    expect(await expectDocumented('/iam/v2beta/oauth2/token', request('grant_type=client_credentials', 'Basic eDp5'), 401)).toMatchObject({ error: 'invalid_client' })
    await expectDocumented(
      '/payments/v2/counterparties',
      { method: 'GET', url: '/payments/v2/counterparties', headers: { authorization: `Bearer ${String(token.access_token)}` }, as: null },
      200,
    )
  })

  it('the idempotency test endpoint, first answer and replay', async () => {
    const request: RequestOptions = { method: 'POST', url: '/v1/idempotency-test?status=202', headers: { 'idempotency-key': 'openapi-test' } }
    const first = await expectDocumented('/v1/idempotency-test', request, 202)
    const replay = await t.request(request)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first)
  })
})
