import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateClientTypes } from '../../scripts/client-types.js'
import { generateOpenApiDocument } from '../../scripts/openapi-document.js'
import { registerOpenApi } from '../../src/http/openapi.js'
import { OPERATION_ID_OVERRIDES } from '../../src/http/operation-ids.js'
import { startTestApp, type TestApp } from '../support/test-app.js'

/**
 * What generated clients (openapi-typescript keys its `operations` by operationId), Redocly and readers of the
 * document rely on: ids, words, tags, servers, licence, and request examples that are true.
 */

interface Media {
  schema?: unknown
  example?: unknown
  examples?: Record<string, { value: unknown }>
}
interface Operation {
  operationId?: string
  summary?: string
  description?: string
  tags?: string[]
  requestBody?: { required?: boolean; content: Record<string, Media> }
  responses: Record<string, { content?: Record<string, Media> }>
}
interface OpenApiDocument {
  info: { license?: { name: string; identifier?: string } }
  servers?: Array<{ url: string; description?: string }>
  tags?: Array<{ name: string; description?: string }>
  paths: Record<string, Record<string, Operation>>
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']
/** The verbs of the HTTP methods; a custom method (`…/{id}:approve`) is its own verb. */
const VERBS = ['list', 'get', 'create', 'update', 'replace', 'delete']

let document: OpenApiDocument
beforeAll(async () => {
  document = (await generateOpenApiDocument()) as unknown as OpenApiDocument
})

function operations(): Array<{ route: string; path: string; method: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, path, method, operation })),
  )
}

/** Every example of every request body, with the JSON Pointer of the schema it must satisfy. */
function requestExamples(): Array<{ where: string; pointer: string; value: unknown }> {
  return operations().flatMap(({ route, path, method, operation }) =>
    Object.entries(operation.requestBody?.content ?? {}).flatMap(([type, media]) => {
      const values = [
        ...(media.example === undefined ? [] : [media.example]),
        ...Object.values(media.examples ?? {}).map((example) => example.value),
      ]
      const pointer = ['paths', path, method, 'requestBody', 'content', type, 'schema']
        .map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/')
      return values.map((value) => ({ where: `${route} ${type}`, pointer, value }))
    }),
  )
}

describe('operationIds', () => {
  it('every operation has one, unique, camelCase verb + resource', () => {
    const ids = operations().map(({ route, path, operation }) => {
      const operationId = operation.operationId!
      expect(operationId, route).toMatch(/^[a-z]+(?:[A-Z][a-z0-9]*)+$/)
      const action = /:([A-Za-z]+)$/.exec(path)?.[1]
      if (action) expect(operationId, route).toMatch(new RegExp(`^${action}[A-Z]`))
      else if (!(route in OPERATION_ID_OVERRIDES)) expect(VERBS, `${route}: ${operationId}`).toContain(/^[a-z]+/.exec(operationId)![0])
      return operationId
    })
    expect(ids.length).toBeGreaterThanOrEqual(70)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('are the names the SDK and its readers use', () => {
    const expected = {
      'GET /payments/v2/credit-transfers': 'listCreditTransfers',
      'GET /payments/v2/credit-transfers/{id}': 'getCreditTransfer',
      'POST /payments/v2/credit-transfers': 'createCreditTransfer',
      'PATCH /payments/v2/credit-transfers/{id}': 'updateCreditTransfer',
      'POST /payments/v2/credit-transfers/{id}:approve': 'approveCreditTransfer',
      'GET /payments/v2/credit-transfers/{id}/events': 'listCreditTransferEvents',
      'POST /payments/v2beta/credit-transfer-batches': 'createCreditTransferBatch',
      'GET /payments/v2beta/credit-transfer-batches': 'listCreditTransferBatches',
      'GET /payments/v2beta/credit-transfer-batches/{id}': 'getCreditTransferBatch',
      'GET /payments/v2beta/credit-transfer-batches/{id}/results': 'listCreditTransferBatchResults',
      'POST /payments/v2/credit-transfer-batches/{id}:approve': 'approveCreditTransferBatch',
      'POST /payments/v2/credit-transfer-batches/{id}:reject': 'rejectCreditTransferBatch',
      'DELETE /payments/v2/counterparties/{id}': 'deleteCounterparty',
      'POST /payments/v2/external-accounts': 'createExternalAccount',
      'DELETE /payments/v2/external-accounts/{id}': 'deleteExternalAccount',
      'GET /financial-data/v2/entities': 'listEntities',
      'GET /financial-data/v2/entities/{id}/events': 'listEntityEvents',
      'GET /financial-data/v2/pending-transactions': 'listPendingTransactions',
      'GET /financial-data/v2/pending-transactions/{id}': 'getPendingTransaction',
      'GET /financial-data/v2/pending-transactions/{id}/events': 'listPendingTransactionEvents',
      'POST /iam/v2/users/{id}/access-keys': 'createUserAccessKey',
      'GET /iam/v2beta/audit-log-entries': 'listAuditLogEntries',
      'GET /iam/v2beta/audit-log-entries/{id}': 'getAuditLogEntry',
      'POST /v1/webhooks/{id}/deliveries/{deliveryId}:redeliver': 'redeliverWebhookDelivery',
      'POST /v1/sandbox/clock:advance': 'advanceSandboxClock',
      'POST /financial-data/v2/statements': 'importStatement',
      'GET /healthz': 'getHealth',
    }
    const ids = Object.fromEntries(operations().map(({ route, operation }) => [route, operation.operationId]))
    expect(Object.fromEntries(Object.keys(expected).map((route) => [route, ids[route]]))).toEqual(expected)
  })

  it('a duplicate stops the app at registration, naming both routes', async () => {
    const app = Fastify()
    await registerOpenApi(app, '0.0.0')
    app.get('/payments/v2/widgets/:id', async () => ({}))
    expect(() => app.get('/payments/v3/widgets/:id', async () => ({}))).toThrow(
      'operationId getWidget of GET /payments/v3/widgets/{id} is already that of GET /payments/v2/widgets/{id}',
    )
    await app.close()
  })

  it('a route no id can be derived for stops the app at registration', async () => {
    const app = Fastify()
    await registerOpenApi(app, '0.0.0')
    expect(() => app.get('/metrics', async () => ({}))).toThrow(/GET \/metrics.*OPERATION_ID_OVERRIDES/)
    await app.close()
  })
})

describe('the words of the document', () => {
  it('every operation has a summary and a description', () => {
    for (const { route, operation } of operations()) {
      expect(operation.summary?.trim(), `${route} summary`).toBeTruthy()
      expect(operation.description?.trim(), `${route} description`).toBeTruthy()
    }
  })

  it('lists describe the paging rules', () => {
    const list = document.paths['/payments/v2/credit-transfers']!.get!
    expect(list.description).toContain('send the response\'s `nextToken` as `token`')
    expect(list.description).toContain('only an empty `nextToken` means the end')
    expect(document.paths['/payments/v2/credit-transfers/{id}']!.get!.description).not.toContain('nextToken')
  })

  it('declares every tag it uses, with a description, and no tag it does not use', () => {
    const declared = (document.tags ?? []).map((tag) => tag.name)
    for (const tag of document.tags ?? []) expect(tag.description?.trim(), tag.name).toBeTruthy()
    const used = new Set(operations().flatMap(({ operation }) => operation.tags ?? []))
    for (const { route, operation } of operations()) expect(operation.tags?.length, route).toBeGreaterThan(0)
    expect([...used].sort()).toEqual([...declared].sort())
    expect(declared).toHaveLength(21)
  })

  it('names the default server and the MIT licence', () => {
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:8080', description: expect.stringContaining('npm start') }])
    expect(document.info.license).toEqual({ name: 'MIT', identifier: 'MIT' })
  })

  it('the health probes document the errors they can answer with', () => {
    for (const path of ['/healthz', '/readyz']) {
      expect(Object.keys(document.paths[path]!.get!.responses).sort(), path).toEqual(['200', '400', '500', '503'])
    }
  })
})

describe('optional request bodies', () => {
  const OPTIONAL = [
    'POST /payments/v2/credit-transfers/{id}:reject',
    'POST /payments/v2/credit-transfers/{id}:cancel',
    'POST /payments/v2/direct-debits/{id}:reject',
    'POST /payments/v2/direct-debits/{id}:cancel',
    'POST /payments/v2/credit-transfer-batches/{id}:reject',
  ]

  it('the bodies of the payments’ :reject and :cancel, which the server accepts absent, are not required; only actions’ may be', () => {
    const withBody = operations().filter(({ operation }) => operation.requestBody !== undefined)
    const optional = withBody.filter(({ operation }) => operation.requestBody!.required !== true).map(({ route }) => route)
    expect(optional).toEqual(expect.arrayContaining(OPTIONAL))
    for (const route of optional) expect(route).toMatch(/\}:(reject|cancel)$/)
    for (const { route, operation } of withBody) {
      expect([true, false], route).toContain(operation.requestBody!.required)
      expect(Object.keys(operation).filter((key) => key.startsWith('x-')), route).toEqual([])
    }
    expect(document.paths['/payments/v2/credit-transfers/{id}:approve']!.post!.requestBody!.required).toBe(true)
  })

  it('so the generated client types let a caller leave them out', async () => {
    const types = await generateClientTypes(document)
    const requestBodyOf = (operationId: string) => new RegExp(`\\n    ${operationId}: \\{[^]*?\\n        (requestBody\\??):`).exec(types)?.[1]
    expect(requestBodyOf('rejectCreditTransfer')).toBe('requestBody?')
    expect(requestBodyOf('cancelDirectDebit')).toBe('requestBody?')
    expect(requestBodyOf('approveCreditTransfer')).toBe('requestBody')
  })

  it('follows the route’s body schema: Type.Optional makes it optional', async () => {
    const app = Fastify()
    await registerOpenApi(app, '0.0.0')
    const body = Type.Object({ reason: Type.Optional(Type.String()) })
    app.post('/payments/v2/widgets/:id(^.+)::reject', { schema: { body: Type.Optional(body) } }, async () => ({}))
    app.post('/payments/v2/widgets/:id(^.+)::approve', { schema: { body } }, async () => ({}))
    await app.ready()
    const paths = (app.swagger() as unknown as OpenApiDocument).paths
    expect(paths['/payments/v2/widgets/{id}:reject']!.post!.requestBody!.required).toBe(false)
    expect(paths['/payments/v2/widgets/{id}:approve']!.post!.requestBody!.required).toBe(true)
    await app.close()
  })
})

describe('request body examples', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  /** The document as one schema, so that `#/components/schemas/…` references resolve inside it. */
  function schemaAt(pointer: string) {
    if (!ajv.getSchema('kassa-openapi')) ajv.addSchema({ ...document, $id: 'kassa-openapi' } as object)
    return ajv.getSchema(`kassa-openapi#/${pointer}`)!
  }

  it('every request body has one, in every media type (JSON, XML, form-encoded)', () => {
    const types = new Set<string>()
    for (const { route, operation } of operations()) {
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        types.add(type)
        expect(media.example ?? media.examples, `${route} ${type}`).toBeDefined()
      }
    }
    expect([...types].sort()).toEqual(
      expect.arrayContaining(['application/json', 'application/json-patch+json', 'application/x-www-form-urlencoded', 'application/xml', 'text/xml']),
    )
  })

  it('each validates against the schema it illustrates', () => {
    const examples = requestExamples()
    expect(examples.length).toBeGreaterThanOrEqual(36)
    for (const { where, pointer, value } of examples) {
      const validate = schemaAt(pointer)
      expect(validate(value), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true)
    }
  })

  it('the schemas really constrain: a broken example does not validate', () => {
    const validate = schemaAt('paths/~1payments~1v2~1counterparties/post/requestBody/content/application~1json/schema')
    const example = document.paths['/payments/v2/counterparties']!.post!.requestBody!.content['application/json']!.example as object
    expect(validate({ ...example, nickname: 'x' })).toBe(false)
  })
})

describe('request body examples are accepted by a server', () => {
  let t: TestApp
  beforeAll(async () => {
    // The webhook example's host resolves to a public address without asking DNS, so the test runs offline.
    t = await startTestApp({ webhooks: { startWorker: false, resolve: async () => [{ address: '93.184.215.14', family: 4 }] } })
  })
  afterAll(() => t?.close())

  const exampleOf = (method: string, path: string) => document.paths[path]![method]!.requestBody!.content['application/json']!.example

  it('the statement example imports into the account of the accounts example (application/xml and text/xml alike)', async () => {
    const as = await t.newOrganization('Statement example')
    const created = await t.request({ method: 'POST', url: '/financial-data/v2/accounts', body: exampleOf('post', '/financial-data/v2/accounts'), as })
    expect(created.statusCode, created.body).toBe(201)
    const content = document.paths['/financial-data/v2/statements']!.post!.requestBody!.content
    expect(content['text/xml']!.example).toBe(content['application/xml']!.example)
    const xml = content['application/xml']!.example as string
    const imported = await t.request({ method: 'POST', url: '/financial-data/v2/statements', body: xml, headers: { 'content-type': 'application/xml' }, as })
    expect(imported.statusCode, imported.body).toBe(201)
    expect(imported.json()).toMatchObject({ statementsFound: 1, transactionsBooked: 1, warnings: [] })
    expect(imported.json().statements).toMatchObject([{ iban: 'DE02120300000000202051', transactionsBooked: 1 }])
  })

  it('the status report example is read as a pain.002, its ids listed as unknown on a connection that never sent them', async () => {
    const connection = await t.request({ method: 'POST', url: '/connectivity/v2/connections', body: exampleOf('post', '/connectivity/v2/connections') })
    expect(connection.statusCode, connection.body).toBe(201)
    const xml = document.paths['/connectivity/v2/connections/{id}/files']!.post!.requestBody!.content['application/xml']!.example as string
    const url = `/connectivity/v2/connections/${connection.json().id}/files`
    const answer = await t.request({ method: 'POST', url, body: xml, headers: { 'content-type': 'application/xml' } })
    expect(answer.statusCode, answer.body).toBe(201)
    expect(answer.json()).toMatchObject({
      file: { messageType: 'pain.002.001.10', messageId: 'STS-20260303-0001', status: 'PROCESSED' },
      unknown: { originalMessageId: 'KASSA-20260303-0001', endToEndIds: ['E2E-INV-2026-0117', 'E2E-INV-2026-0118'] },
    })
  })

  it('the token request example, form-encoded with the key by HTTP Basic, gets a token', async () => {
    for (const path of ['/iam/v2beta/oauth2/token', '/iam/v2/oauth2/token']) {
      const form = document.paths[path]!.post!.requestBody!.content['application/x-www-form-urlencoded']!.example as Record<string, string>
      const headers = { 'content-type': 'application/x-www-form-urlencoded' }
      const response = await t.request({ method: 'POST', url: path, body: new URLSearchParams(form).toString(), headers })
      expect(response.statusCode, response.body).toBe(200)
      expect(response.json()).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^kassa_at_/) })
    }
  })

  it.each([
    ['post', '/financial-data/v2/accounts', 201],
    ['post', '/payments/v2/counterparties', 201],
    ['post', '/iam/v2/roles', 201],
    ['post', '/v1/webhooks', 201],
    ['post', '/v1/sandbox/clock:advance', 200],
  ] as const)('%s %s → %i', async (method, path, status) => {
    const response = await t.request({ method: method.toUpperCase() as 'POST', url: path, body: exampleOf(method, path) })
    expect(response.statusCode, response.body).toBe(status)
  })
})
